// Drawing one picture of an export: the frame, the step's highlight and marker, its caption;
// or a gap's slate. The same look as the bundle view and the HTML export (presentation.ts
// decides the colour and the stroke; the Node side passes them).
import type { Overlay } from './protocol.js';

const FONT_FAMILY = '"DejaVu Sans", "Liberation Sans", Arial, system-ui, sans-serif';

export function drawPicture(ctx: OffscreenCanvasRenderingContext2D, image: ImageBitmap | null, overlay: Overlay, width: number, height: number): void {
  if (image && !overlay.gap) ctx.drawImage(image, 0, 0, width, height);
  else drawSlate(ctx, overlay.gap ?? 'No picture was captured here', width, height);
  if (image && !overlay.gap && overlay.box && overlay.stroke) drawHighlight(ctx, overlay);
  if (overlay.caption) drawCaption(ctx, overlay, width, height);
}

function drawSlate(ctx: OffscreenCanvasRenderingContext2D, reason: string, width: number, height: number): void {
  ctx.fillStyle = '#1d2127';
  ctx.fillRect(0, 0, width, height);
  const size = Math.round(height / 22);
  ctx.fillStyle = '#f2f4f7';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `bold ${size}px ${FONT_FAMILY}`;
  ctx.fillText('Not recorded', width / 2, height / 2 - size);
  ctx.font = `${Math.round(size * 0.7)}px ${FONT_FAMILY}`;
  ctx.fillStyle = '#c3c9d2';
  const lines = wrap(ctx, [{ text: reason, strong: false }], width * 0.8, Math.round(size * 0.7));
  lines.slice(0, 3).forEach((line, i) => ctx.fillText(line.map((r) => r.text).join(''), width / 2, height / 2 + size * 0.4 + i * size));
  ctx.textAlign = 'start';
}

function drawHighlight(ctx: OffscreenCanvasRenderingContext2D, overlay: Overlay): void {
  const box = overlay.box!;
  const stroke = overlay.stroke ?? 3;
  ctx.strokeStyle = overlay.colour;
  ctx.lineWidth = stroke;
  ctx.beginPath();
  // The outline sits just outside the box, as in the bundle view, so the element stays readable.
  ctx.roundRect(box.x - stroke / 2, box.y - stroke / 2, box.width + stroke, box.height + stroke, stroke);
  ctx.stroke();
  if (overlay.point) {
    ctx.beginPath();
    ctx.arc(overlay.point.x, overlay.point.y, stroke * 3, 0, Math.PI * 2);
    ctx.globalAlpha = 0.55;
    ctx.fillStyle = overlay.colour;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.lineWidth = stroke / 2;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
  }
}

type Run = { text: string; strong: boolean };

function fontOf(run: Run, size: number): string {
  return `${run.strong ? 'bold ' : ''}${size}px ${FONT_FAMILY}`;
}

/** The runs broken into lines of at most `max` pixels, at word boundaries. */
function wrap(ctx: OffscreenCanvasRenderingContext2D, runs: Run[], max: number, size: number): Run[][] {
  const lines: Run[][] = [[]];
  let used = 0;
  for (const run of runs) {
    ctx.font = fontOf(run, size);
    for (const word of run.text.split(/(?<=\s)/)) {
      const w = ctx.measureText(word).width;
      if (used + w > max && used > 0) {
        lines.push([]);
        used = 0;
      }
      const line = lines.at(-1)!;
      const lastRun = line.at(-1);
      if (lastRun && lastRun.strong === run.strong) lastRun.text += word;
      else line.push({ text: word, strong: run.strong });
      used += w;
    }
  }
  return lines;
}

function drawCaption(ctx: OffscreenCanvasRenderingContext2D, overlay: Overlay, width: number, height: number): void {
  const { step, parts } = overlay.caption!;
  const size = Math.max(12, Math.round(height / 26));
  const pad = Math.round(size * 0.6);
  const maxText = width * 0.86;
  const lines = wrap(ctx, parts, maxText, size).slice(0, 3);
  ctx.font = fontOf({ text: '', strong: false }, size);
  const lineWidths = lines.map((line) =>
    line.reduce((sum, run) => {
      ctx.font = fontOf(run, size);
      return sum + ctx.measureText(run.text).width;
    }, 0),
  );
  const labelSize = Math.round(size * 0.62);
  const boxWidth = Math.min(width - 2 * pad, Math.max(...lineWidths, 0) + 2 * pad);
  const boxHeight = pad * 2 + labelSize * 1.4 + lines.length * size * 1.3;
  // Below the action, unless the action is in the lower part of the picture.
  const box = overlay.box;
  const low = box ? box.y + box.height / 2 > height * 0.62 : false;
  const x = Math.round((width - boxWidth) / 2);
  const y = Math.round(low ? pad : height - boxHeight - pad);
  ctx.fillStyle = 'rgba(17, 20, 24, 0.82)';
  ctx.beginPath();
  ctx.roundRect(x, y, boxWidth, boxHeight, pad / 2);
  ctx.fill();
  ctx.textBaseline = 'top';
  ctx.fillStyle = overlay.colour;
  ctx.font = `bold ${labelSize}px ${FONT_FAMILY}`;
  ctx.fillText(step.toUpperCase(), x + pad, y + pad);
  ctx.fillStyle = '#ffffff';
  lines.forEach((line, i) => {
    let cx = x + pad;
    const cy = y + pad + labelSize * 1.4 + i * size * 1.3;
    for (const run of line) {
      ctx.font = fontOf(run, size);
      ctx.fillText(run.text, cx, cy);
      cx += ctx.measureText(run.text).width;
    }
  });
}
