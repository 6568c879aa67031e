// `--gif demo.gif`: a short animated summary of the steps, one still per step (its picture
// with the highlight and the caption drawn as in the video), a few seconds each, looping.
// Stills are drawn in the render page; gifenc quantises and encodes them here.
import { lstat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PICTURE_FILE_PATTERN } from '../bundle/format.js';
import { FRAME_FILE_PATTERN } from '../bundle/recording-format.js';
import { gifenc } from './gifenc.js';
import { prepareOutput } from './output-file.js';
import { buildTimeline, frameAt } from '../bundle/timeline.js';
import { outputSize, overlayOf } from './plan.js';
import { openRenderPage, type OpenRenderTarget, type RenderPage } from './render-page.js';
import { ExportError, type ExportSource } from './source.js';
import type { ExportResult } from './video.js';

/** Each step stays on screen this long (ms). */
export const GIF_STEP_MS = 3000;
/** A GIF this wide at most: it travels by mail and chat. */
export const GIF_MAX_WIDTH = 800;

export interface GifExportOptions {
  source: ExportSource;
  out: string;
  openTarget: OpenRenderTarget;
  onProgress?: (done: number) => void;
}

async function readIfFile(dir: string, file: string): Promise<Buffer | null> {
  try {
    return (await lstat(join(dir, file))).isFile() ? await readFile(join(dir, file)) : null;
  } catch {
    return null;
  }
}

/** A step's picture: the one taken after its act, else the recording's frame at its time, else none. */
async function stepJpeg(source: ExportSource, index: number): Promise<Buffer | null> {
  const step = source.detail.steps[index]!;
  if (step.picture && PICTURE_FILE_PATTERN.test(step.picture)) {
    const picture = await readIfFile(source.dir, step.picture);
    if (picture) return picture;
  }
  const timeline = buildTimeline(source.recording);
  const frame = timeline ? frameAt(timeline, step.at - timeline.startAt) : null;
  return frame && FRAME_FILE_PATTERN.test(frame.file) ? readIfFile(source.dir, frame.file) : null;
}

/** The size of the stills: the steps' viewport (or the recording's), at most GIF_MAX_WIDTH wide. */
function gifSize(source: ExportSource): { width: number; height: number } {
  const viewport = source.detail.steps.find((s) => s.viewport)?.viewport;
  const frame = source.recording.find((l) => l.type === 'frame');
  const width = viewport?.width ?? (frame?.type === 'frame' ? frame.width : 1280);
  const height = viewport?.height ?? (frame?.type === 'frame' ? frame.height : 720);
  return outputSize(width, height, GIF_MAX_WIDTH);
}

/** Writes one still per step as an animated GIF at `out`; answers what was written. */
export async function exportGif(options: GifExportOptions): Promise<ExportResult> {
  const { source } = options;
  const steps = source.detail.steps;
  if (steps.length === 0) throw new ExportError('the bundle has no steps (the agent did nothing), so there is no summary to make; export --html to show the record');
  const output = await prepareOutput(options.out, source.dir);
  const { width, height } = gifSize(source);
  let page: RenderPage | undefined;
  try {
    options.onProgress?.(0);
    page = await openRenderPage(options.openTarget);
    const gif = gifenc.GIFEncoder();
    for (const [index] of steps.entries()) {
      const jpeg = await stepJpeg(source, index);
      const overlay = overlayOf(steps, index, true, jpeg ? null : 'no picture was captured for this step', width, height);
      const rgba = Buffer.from(await page.call('still', { image: null, jpeg: jpeg?.toString('base64') ?? null, overlay, width, height }), 'base64');
      const palette = gifenc.quantize(rgba, 256);
      gif.writeFrame(gifenc.applyPalette(rgba, palette), width, height, { palette, delay: GIF_STEP_MS });
      options.onProgress?.(Math.min(0.99, (index + 1) / steps.length));
    }
    gif.finish();
    await writeFile(output.partial, gif.bytes());
    const bytes = await output.commit();
    options.onProgress?.(1);
    return { path: output.path, bytes, codec: 'gif', durationMs: steps.length * GIF_STEP_MS, pictures: steps.length };
  } catch (error) {
    await output.discard();
    throw error;
  } finally {
    await page?.close();
  }
}
