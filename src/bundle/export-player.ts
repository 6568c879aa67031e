// The HTML export's player: its data (the recording's lines, each distinct frame once as a
// data: URI, the steps) and its markup, hidden until the inlined script (player-page/embed.ts,
// bundled into player-script.generated.ts) shows it. Without JavaScript the section stays
// hidden and the steps below read as they always did.
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PLAYER_DATA_ID, PLAYER_ID, type EmbeddedPlayerData } from './export-player-data.js';
import { PLAYER_SCRIPT } from './player-script.generated.js';
import { FRAME_FILE_PATTERN } from './recording-format.js';
import { buildTimeline } from './timeline.js';
import type { BundleDetail } from './views.js';

/**
 * A frame on screen for less than this (ms) before the next frame is left out of the export:
 * the frame before it stays on screen that long instead. Typing repaints every few ms; nobody
 * sees those frames at 1×, and they would make the file several times larger.
 */
export const EXPORT_MIN_FRAME_MS = 100;

/** The player's data for `detail`'s recording (frames read from `dir`), or null when there is nothing to play. */
export async function embeddedPlayerData(dir: string, detail: BundleDetail): Promise<EmbeddedPlayerData | null> {
  const recording = detail.recording;
  const timeline = recording && buildTimeline(recording.lines);
  if (!recording || !timeline) return null;
  const frames: string[] = [];
  const byDigest = new Map<string, number>();
  let previous: number | null = null;
  const lines: EmbeddedPlayerData['lines'] = [];
  for (const [i, line] of recording.lines.entries()) {
    if (line.type === 'gap') {
      lines.push({ type: 'gap', at: line.at, reason: line.reason });
      continue;
    }
    const next = recording.lines[i + 1];
    const brief = next?.type === 'frame' && next.at - line.at < EXPORT_MIN_FRAME_MS;
    let index: number | null = brief && previous !== null ? previous : null;
    if (index === null && FRAME_FILE_PATTERN.test(line.file) && (await lstat(join(dir, line.file)).catch(() => null))?.isFile()) {
      const data = await readFile(join(dir, line.file));
      const digest = createHash('sha256').update(data).digest('hex');
      index = byDigest.get(digest) ?? null;
      if (index === null) {
        index = frames.push(`data:image/jpeg;base64,${data.toString('base64')}`) - 1;
        byDigest.set(digest, index);
      }
    }
    if (index === null) continue;
    previous = index;
    lines.push({ type: 'frame', at: line.at, file: String(index), width: line.width, height: line.height });
  }
  const steps = detail.steps.map(({ at, caption, box, point, viewport }) => ({ at, caption, ...(box && viewport ? { box, viewport, ...(point ? { point } : {}) } : {}) }));
  return { lines, frames, steps };
}

/** The CSP source that allows the player's inline script, and nothing else. */
export function playerScriptSource(): string {
  return `'sha256-${createHash('sha256').update(PLAYER_SCRIPT, 'utf8').digest('base64')}'`;
}

/** JSON safe inside a `<script>` element: no `<` at all, so no closing tag and no comment opener. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const KEYS_NOTE = 'Keys: Space plays and pauses; ← and → go to the previous and next step; Shift+← and Shift+→ go 5 seconds back and forward; Home and End go to the start and the end.';

/** The player's section, its data and its script; hidden until the script runs. */
export function playerHtml(data: EmbeddedPlayerData): string {
  const first = data.lines.find((line) => line.type === 'frame') as { width: number; height: number };
  return `<section id="${PLAYER_ID}" class="player" aria-label="Player" hidden><h2>Recording</h2>
<div class="player-stage" tabindex="0" role="group" aria-label="Recording" aria-describedby="player-keys" style="aspect-ratio:${first.width}/${first.height}">
<svg class="player-picture" role="img" aria-label="The recording" viewBox="0 0 ${first.width} ${first.height}"><image x="0" y="0" width="${first.width}" height="${first.height}" preserveAspectRatio="none"/><g class="marks"></g></svg>
<p class="player-gap" hidden></p><p class="player-caption" aria-live="polite" hidden></p></div>
<div class="player-controls"><button type="button" class="player-play">Play</button> <button type="button" class="player-previous">Previous step</button> <button type="button" class="player-next">Next step</button>
<span class="player-clock" aria-hidden="true"></span> <label class="player-speed">Speed <select></select></label></div>
<div class="player-timeline" role="group" aria-label="Timeline"><div class="player-track" aria-hidden="true"></div><input type="range" class="player-position" aria-label="Position" min="0" max="0" step="any" value="0"><div class="player-marks"></div></div>
<p id="player-keys" class="muted">${KEYS_NOTE}</p>
<script type="application/json" id="${PLAYER_DATA_ID}">${scriptJson(data)}</script>
<script>${PLAYER_SCRIPT}</script>
</section>`;
}

export const PLAYER_CSS = `
.player{margin-top:1.5rem}.player-stage{position:relative;width:100%;background:#0f172a;border:1px solid #ccc;border-radius:.4rem;overflow:hidden}
.player-stage:focus-visible{outline:3px solid #1f5fbf;outline-offset:2px}.player-picture{display:block;width:100%;height:100%}
.player-gap{position:absolute;inset:0;margin:0;display:flex;align-items:center;justify-content:center;flex-wrap:wrap;gap:.35rem;padding:1rem;text-align:center;color:#e2e8f0;background:repeating-linear-gradient(135deg,#1e293b 0 12px,#0f172a 12px 24px)}
.player-caption{position:absolute;left:0;right:0;bottom:0;margin:0;padding:.5rem .75rem;font-size:1.05rem;color:#fff;background:rgb(15 23 42/.82)}.player-caption-step{color:#cbd5e1;margin-right:.35rem}
.player-controls{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;margin:.5rem 0 .25rem}.player-controls button{font:inherit;padding:.3rem .8rem}
.player-clock{font-variant-numeric:tabular-nums;color:#4a4a4f}.player-timeline{position:relative;padding:.75rem 0 .25rem}.player-position{display:block;width:100%;margin:0}
.player-track{position:absolute;left:0;right:0;top:.35rem;height:.4rem}.player-track-gap{position:absolute;top:0;bottom:0;background:repeating-linear-gradient(135deg,#5a5a60 0 3px,transparent 3px 6px)}
.player-marks{position:relative;height:1rem}.player-mark{position:absolute;top:0;width:.75rem;height:.75rem;margin-left:-.375rem;padding:0;border:2px solid #fff;border-radius:50%;background:#1f5fbf;cursor:pointer}
.player-mark.current{background:#ff6a00}[hidden]{display:none!important}
`;
