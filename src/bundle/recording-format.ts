// The recording's on-disk format: the continuous capture of the target, kept beside the events.
//
//   recording/
//     index.ndjson   one line per frame or gap, hash-chained like events.ndjson (its own chain)
//     1.jpg, 2.jpg   the frames, numbered from 1 in the order they were recorded
//
// The index is the recording's timeline: a `frame` line names its file with size and SHA-256,
// a `gap` line says from when and why nothing was recorded (until the next frame). The end
// event of events.ndjson carries the index's head, so the bundle's own chain covers the
// recording too, and the manifest lists every frame file like any other file.
import { GENESIS_PREV, sha256Hex } from './format.js';

export const RECORDING_DIR = 'recording';
export const RECORDING_INDEX = `${RECORDING_DIR}/index.ndjson`;
export const FRAME_FILE_PATTERN = /^recording\/([1-9][0-9]{0,8})\.jpg$/;
const HEX64 = /^[0-9a-f]{64}$/;

export function frameFileName(index: number): string {
  return `${RECORDING_DIR}/${index}.jpg`;
}

/**
 * Why the recording has a gap. The first four are the host's; a shell may add detail after
 * `: `. A gap lasts until the next frame line (or the end of the recording).
 */
export type GapReason = 'not capture-safe' | 'target closed' | 'session killed' | 'session ended' | 'recording limit';

interface LineHead {
  seq: number;
  prev: string;
  at: number;
}

export interface FrameLine extends LineHead {
  type: 'frame';
  /** `recording/<n>.jpg`, n counting frames from 1. */
  file: string;
  size: number;
  sha256: string;
  /** The frame's size in pixels (the target's viewport at its device scale). */
  width: number;
  height: number;
}

export interface GapLine extends LineHead {
  type: 'gap';
  /** A GapReason, optionally followed by `: <detail>`. */
  reason: string;
}

export type RecordingLine = FrameLine | GapLine;
export type RecordingLineBody = Omit<FrameLine, 'seq' | 'prev'> | Omit<GapLine, 'seq' | 'prev'>;

/** What the end event says about the recording: the index's chain head and its counts. */
export interface RecordingSummary {
  frames: number;
  gaps: number;
  /** Bytes of frame files. */
  bytes: number;
  /** SHA-256 of the index's last line (GENESIS_PREV when it has none). */
  head: string;
}

export function encodeRecordingLine(seq: number, prev: string, body: RecordingLineBody): { line: Buffer; hash: string } {
  const text = JSON.stringify({ seq, prev, ...body });
  return { line: Buffer.from(`${text}\n`, 'utf8'), hash: sha256Hex(Buffer.from(text, 'utf8')) };
}

export interface ParsedRecording {
  lines: RecordingLine[];
  head: string;
  completeBytes: number;
  tornTail: Buffer | null;
  problem: { line: number; message: string } | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The number n of a frame file `recording/<n>.jpg`, or null. */
export function frameNumberOf(file: string): number | null {
  const match = FRAME_FILE_PATTERN.exec(file);
  return match ? Number(match[1]) : null;
}

/** Why `value` cannot be line `index` after a chain whose head is `prev`, or null. */
function lineProblem(value: unknown, index: number, prev: string, lastFrame: number): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const e = value as Record<string, unknown>;
  if (e.seq !== index) return `seq is ${JSON.stringify(e.seq)}, expected ${index}`;
  if (e.prev !== prev) return 'prev does not match the hash of the line before it (a line was changed, removed or moved)';
  if (typeof e.at !== 'number' || !Number.isFinite(e.at)) return 'at is not a time';
  if (e.type === 'gap') return typeof e.reason === 'string' && e.reason.length > 0 ? null : 'gap.reason is not a non-empty string';
  if (e.type !== 'frame') return `unknown line type ${JSON.stringify(e.type)}`;
  // Numbers only grow: a frame whose write failed used its number up.
  const number = typeof e.file === 'string' ? frameNumberOf(e.file) : null;
  if (number === null || number <= lastFrame) return `frame.file ${JSON.stringify(e.file)} is not recording/<n>.jpg with n above ${lastFrame}`;
  if (!isCount(e.size)) return 'frame.size is not a byte count';
  if (typeof e.sha256 !== 'string' || !HEX64.test(e.sha256)) return 'frame.sha256 is not a SHA-256 hex digest';
  if (!isCount(e.width) || !isCount(e.height)) return 'frame.width or height is not a pixel count';
  return null;
}

/** Parses recording/index.ndjson, checking each line and the chain, stopping at the first problem. */
export function parseRecording(data: Buffer): ParsedRecording {
  const lines: RecordingLine[] = [];
  let head = GENESIS_PREV;
  let lastFrame = 0;
  let start = 0;
  let problem: ParsedRecording['problem'] = null;
  for (;;) {
    const newline = data.indexOf(0x0a, start);
    if (newline === -1) break;
    const bytes = data.subarray(start, newline);
    start = newline + 1;
    if (problem) continue;
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(bytes));
    } catch (error) {
      problem = { line: lines.length + 1, message: `not a JSON line (${(error as Error).message})` };
      continue;
    }
    const message = lineProblem(value, lines.length, head, lastFrame);
    if (message) {
      problem = { line: lines.length + 1, message };
      continue;
    }
    const line = value as RecordingLine;
    if (line.type === 'frame') lastFrame = frameNumberOf(line.file) as number;
    lines.push(line);
    head = sha256Hex(bytes);
  }
  return { lines, head, completeBytes: start, tornTail: start < data.length ? data.subarray(start) : null, problem };
}

export function summarizeRecording(lines: readonly RecordingLine[], head: string): RecordingSummary {
  let frames = 0;
  let gaps = 0;
  let bytes = 0;
  for (const line of lines) {
    if (line.type === 'frame') {
      frames += 1;
      bytes += line.size;
    } else gaps += 1;
  }
  return { frames, gaps, bytes, head };
}

/** Why `value` is not a RecordingSummary, or null. */
export function recordingSummaryProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'end.recording is not an object';
  const r = value as Record<string, unknown>;
  if (!isCount(r.frames) || !isCount(r.gaps) || !isCount(r.bytes)) return 'end.recording frames, gaps or bytes is not a count';
  if (typeof r.head !== 'string' || !HEX64.test(r.head)) return 'end.recording.head is not a SHA-256 hex digest';
  return null;
}
