// When each picture of a video export is on screen and what is drawn over it: the recording's
// frames and gaps on their own clock, each step's caption from a little before its act until
// the next step, its highlight around the act (the clock is bundle/timeline.ts's, the
// player's). Pure: the plan is tested without a browser.
import { HIGHLIGHT_COLOUR, captionParts, highlightStroke, scalePlace } from '../bundle/presentation.js';
import type { StepPlace } from '../bundle/format.js';
import type { RecordingLine } from '../bundle/recording-format.js';
import { buildTimeline, lineAt, stepTimes } from '../bundle/timeline.js';
import type { BundleStep } from '../bundle/views.js';
import type { Overlay } from './render-page/protocol.js';
import { ExportError } from './source.js';

/** A step's caption and highlight appear up to this long before its act, so the viewer sees what is about to happen. */
export const LEAD_MS = 600;
/** The highlight stays this long after the act. */
export const HIGHLIGHT_MS = 1600;
/** A caption stays at most this long when no step follows. */
export const CAPTION_MS = 6000;
/** The video has at most 30 pictures a second: frames painted closer together show the latest. */
export const MIN_FRAME_MS = 1000 / 30;
/** A key frame at least this often, so that a player can seek anywhere. */
export const KEY_FRAME_MS = 2000;
/** The widest video made (a larger recording is scaled down). */
export const MAX_WIDTH = 1920;

export interface PlannedFrame {
  /** Milliseconds from the video's start. */
  at: number;
  duration: number;
  /** The recording's frame file on screen (`recording/<n>.jpg`), or null in a gap. */
  image: string | null;
  /** Why nothing was recorded here, in a gap. */
  gap: string | null;
  /** The index of the step whose caption shows, or null. */
  step: number | null;
  highlight: boolean;
  keyFrame: boolean;
}

export interface VideoPlan {
  /** The recording's first line's time (ms since the epoch): the video's zero. */
  start: number;
  /** The recording's length (first line to last), which is the video's. */
  duration: number;
  width: number;
  height: number;
  frames: PlannedFrame[];
}

/** The output size for pictures `width` × `height`: at most MAX_WIDTH wide, even sides (as H.264 needs). */
export function outputSize(width: number, height: number, maxWidth = MAX_WIDTH): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width);
  const even = (n: number) => Math.max(2, 2 * Math.round((n * scale) / 2));
  return { width: even(width), height: even(height) };
}

interface Window {
  from: number;
  captionTo: number;
  highlightTo: number;
}

/** Each step's stretch of the video (ms from its start), from its place on the recording's clock. */
function stepWindows(times: readonly number[], length: number): Window[] {
  // The lead is at most half the time since the step before, so that step is read first.
  const from = times.map((at, i) => Math.max(0, at - Math.min(LEAD_MS, i > 0 ? (at - times[i - 1]!) / 2 : LEAD_MS)));
  return times.map((at, i) => {
    const captionTo = Math.min(at + CAPTION_MS, from[i + 1] ?? length, length);
    return { from: from[i]!, captionTo, highlightTo: Math.min(at + HIGHLIGHT_MS, captionTo) };
  });
}

/** The plan of a video of `recording` with `steps` drawn over it. */
export function planVideo(recording: readonly RecordingLine[], steps: readonly BundleStep[]): VideoPlan {
  const timeline = buildTimeline(recording);
  const first = recording.find((line) => line.type === 'frame');
  if (!timeline || first?.type !== 'frame') {
    throw new ExportError('the bundle has no recorded frames (its session recorded nothing, or an older host made it), so there is no video to make; export --gif or --html instead');
  }
  // A sealed recording ends with the gap that closes it; an unfinished one shows its last frame for a second.
  const length = timeline.endReason === null ? timeline.duration + 1000 : timeline.duration;
  const windows = stepWindows(stepTimes(timeline, steps), length);
  const changes = new Set<number>();
  const quantise = (t: number) => Math.min(length, Math.ceil(t / MIN_FRAME_MS - 1e-6) * MIN_FRAME_MS);
  for (const line of timeline.lines) changes.add(quantise(line.start));
  for (const w of windows) for (const t of [w.from, w.captionTo, w.highlightTo]) changes.add(quantise(t));
  for (let t = 0; t < length; t += KEY_FRAME_MS) changes.add(quantise(t));
  const points = [...changes].filter((t) => t >= 0 && t < length).sort((a, b) => a - b);

  const frames: PlannedFrame[] = [];
  let step = -1;
  let lastKey = -Infinity;
  for (const t of points) {
    const shown = lineAt(timeline, t);
    while (step + 1 < windows.length && windows[step + 1]!.from <= t) step += 1;
    const image = shown.type === 'frame' ? shown.file : null;
    const gap = shown.type === 'gap' ? shown.reason : null;
    const active = step >= 0 && t < windows[step]!.captionTo ? step : null;
    const highlight = active !== null && t < windows[active]!.highlightTo;
    const previous = frames.at(-1);
    const keyDue = t - lastKey >= KEY_FRAME_MS - MIN_FRAME_MS / 2;
    if (previous && !keyDue && previous.image === image && previous.gap === gap && previous.step === active && previous.highlight === highlight) continue;
    if (!previous || keyDue) lastKey = t;
    frames.push({ at: t, duration: 0, image, gap, step: active, highlight, keyFrame: !previous || keyDue });
  }
  frames.forEach((frame, i) => {
    frame.duration = (frames[i + 1]?.at ?? length) - frame.at;
  });
  const size = outputSize(first.width, first.height);
  return { start: timeline.startAt, duration: length, ...size, frames };
}

/** Where a step happened, in the pixels of an output `width` × `height`, or null when its receipt does not say. */
export function stepPlace(step: BundleStep, width: number, height: number): StepPlace | null {
  if (!step.box || !step.viewport) return null;
  const place: StepPlace = { box: step.box, viewport: step.viewport };
  if (step.point) place.point = step.point;
  return scalePlace(place, width, height);
}

/** What is drawn over a picture `width` × `height` for step `index` of `steps` (or for none). */
export function overlayOf(steps: readonly BundleStep[], index: number | null, highlight: boolean, gap: string | null, width: number, height: number): Overlay {
  const overlay: Overlay = { colour: HIGHLIGHT_COLOUR };
  if (gap !== null) overlay.gap = gap;
  if (index === null) return overlay;
  const step = steps[index]!;
  overlay.caption = { step: `Step ${index + 1} of ${steps.length}`, parts: captionParts(step.caption) };
  const place = stepPlace(step, width, height);
  if (place) {
    // The box places the caption (away from the act) even when the highlight is not drawn.
    overlay.box = place.box;
    if (highlight) {
      overlay.stroke = highlightStroke(width);
      if (place.point) overlay.point = place.point;
    } else overlay.stroke = 0;
  }
  return overlay;
}
