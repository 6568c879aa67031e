// The recording's clock, for everything that plays it back (the bundle view's player, the
// HTML export's player, the video export): which frame or gap is on screen at a time t, and
// where each step falls on that clock. Times here are milliseconds from the recording's start.
// Browser-safe: it imports nothing, so the renderer and the export's inlined script bundle it.
//
// The rules are docs/bundle.md's "Playing it back": a frame is on screen from its `at` until
// the next line's `at`; a gap shows no picture, only its reason, until the next frame. The
// last line of a finished recording is a gap that closes it (`session ended`, `session
// killed: …`, `target closed`): it marks the end and is never shown itself, so the end of the
// recording shows what was on screen just before it.

/** A line of recording/index.ndjson as playback needs it (without the chain's fields). */
export type TimelineLine =
  | { type: 'frame'; at: number; file: string; width: number; height: number }
  | { type: 'gap'; at: number; reason: string };

/** A line on the player's clock: shown from `start` until `end` (ms from the recording's start). */
export type ShownLine = TimelineLine & { start: number; end: number };

export interface Timeline {
  /** When the recording starts (its first line's `at`, ms since the epoch). */
  startAt: number;
  /** How long it plays (ms): from its first line to the line that closes it. */
  duration: number;
  /** The lines shown, in order; the closing gap is not among them. */
  lines: ShownLine[];
  /** Why the recording ended (the closing gap's reason), or null when nothing closed it. */
  endReason: string | null;
}

/**
 * The timeline of a recording's lines (in the index's order), or null when it holds no frame
 * (nothing to play). Lines out of time order (a clock step) are held at the time before them.
 */
export function buildTimeline(lines: readonly TimelineLine[]): Timeline | null {
  if (!lines.some((line) => line.type === 'frame')) return null;
  const startAt = lines[0]!.at;
  const last = lines.at(-1)!;
  const closing = lines.length > 1 && last.type === 'gap' ? last : null;
  const body = closing ? lines.slice(0, -1) : lines;
  const starts: number[] = [];
  let clock = 0;
  for (const line of body) {
    clock = Math.max(clock, line.at - startAt);
    starts.push(clock);
  }
  const duration = Math.max(clock, closing ? closing.at - startAt : clock);
  const shown = body.map((line, i) => ({ ...line, start: starts[i]!, end: i + 1 < starts.length ? starts[i + 1]! : duration }));
  return { startAt, duration, lines: shown, endReason: closing ? closing.reason : null };
}

/** `t` held inside the recording: 0 … duration. */
export function clampTime(timeline: Timeline, t: number): number {
  return Number.isFinite(t) ? Math.min(Math.max(t, 0), timeline.duration) : 0;
}

/** The index (in `timeline.lines`) of the line on screen at `t`: the last one started at or before it. */
export function lineIndexAt(timeline: Timeline, t: number): number {
  const time = clampTime(timeline, t);
  const { lines } = timeline;
  let low = 0;
  let high = lines.length - 1;
  // The first line starts at 0, so some line is always on screen.
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lines[mid]!.start <= time) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The line (a frame, or a gap with its reason) on screen at `t`. */
export function lineAt(timeline: Timeline, t: number): ShownLine {
  return timeline.lines[lineIndexAt(timeline, t)]!;
}

/** The frame on screen at `t`, or null while a gap is. */
export function frameAt(timeline: Timeline, t: number): (ShownLine & { type: 'frame' }) | null {
  const line = lineAt(timeline, t);
  return line.type === 'frame' ? line : null;
}

/**
 * Where each step falls on the recording's clock: its receipt's `at` from the start, held
 * inside the recording (a step before the first frame plays at 0, one after its end at the end).
 * Never decreasing, so the steps keep their order on the timeline.
 */
export function stepTimes(timeline: Timeline, steps: readonly { at: number }[]): number[] {
  let previous = 0;
  return steps.map((step) => (previous = Math.max(previous, clampTime(timeline, step.at - timeline.startAt))));
}

/** The step current at `t` (the last one at or before it), or -1 before the first step. */
export function stepIndexAt(times: readonly number[], t: number): number {
  let low = 0;
  let high = times.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (times[mid]! <= t) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** `ms` as the player shows it: `m:ss` (`1:05`), `h:mm:ss` past an hour. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
