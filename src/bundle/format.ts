// The bundle's on-disk format: names, ids, event shapes, and the hash-chained events file.
// Writer, reader, recovery and verifier all go through this one parser, so they agree.
import { createHash, randomBytes } from 'node:crypto';
import { recordingSummaryProblem, type RecordingSummary } from './recording-format.js';
import type { EndState } from '../contract/end-state.js';

export type { EndState };

export const FORMAT = 'cutright-bundle/1';
export const EVENTS_FILE = 'events.ndjson';
export const PICTURES_DIR = 'pictures';
export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.sig';
/** `prev` of the first event: there is no previous line. */
export const GENESIS_PREV = '0'.repeat(64);
/** Pictures bigger than this are refused: a JPEG screenshot is tens to hundreds of KiB. */
export const MAX_PICTURE_BYTES = 32 * 1024 * 1024;

/** `b-<yyyymmdd>T<hhmmss><mmm>Z-<16 hex>`: sorts by creation time (UTC), 64 random bits. */
export const BUNDLE_ID_PATTERN = /^b-\d{8}T\d{9}Z-[0-9a-f]{16}$/;
/** Receipt ids become part of picture file names, so they are kept to a filename-safe set. */
export const RECEIPT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
export const PICTURE_FILE_PATTERN = /^pictures\/([1-9][0-9]{0,8})-([A-Za-z0-9][A-Za-z0-9_-]{0,127})\.jpg$/;
const HEX64 = /^[0-9a-f]{64}$/;

export function newBundleId(nowMs: number): string {
  const stamp = new Date(nowMs).toISOString(); // 2025-01-31T12:34:56.789Z
  const compact = stamp.replace(/[-:]/g, '').replace('.', ''); // 20250131T123456789Z
  return `b-${compact}-${randomBytes(8).toString('hex')}`;
}

export function isBundleId(value: unknown): value is string {
  return typeof value === 'string' && BUNDLE_ID_PATTERN.test(value);
}

export function pictureFileName(index: number, receiptId: string): string {
  return `${PICTURES_DIR}/${index}-${receiptId}.jpg`;
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

// ---- Events ----

interface EventHead {
  seq: number;
  /** SHA-256 (hex) of the previous line's bytes, without its newline; GENESIS_PREV for the first. */
  prev: string;
  at: number;
}

/**
 * The process that asked for the session, as the operating system reported it from the socket
 * (not as the agent said): what a local process cannot lie about. Unknown parts are null, and
 * `unknown` says why.
 */
export interface ConsentRequester {
  pid: number | null;
  /** Absolute path of its executable. */
  executable: string | null;
  /** Its user, when it was not the person's own; null when it was (or could not be read). */
  otherUser: string | null;
  /** Other processes that shared the connection (inherited across fork). */
  sharedWith: number;
  unknown: string | null;
}

export interface ConsentEvent extends EventHead {
  type: 'consent';
  bundleId: string;
  sessionId: string;
  /** The name the agent gave: a claim, not a verified identity. */
  agentName: string;
  appId: string;
  appName: string;
  requestedAt: number;
  answeredAt: number;
  answer: 'allow';
  answeredBy: string;
  /** Who asked, as the OS reported it. Absent in bundles made before it was recorded. */
  requester?: ConsentRequester;
}

export interface CallEvent extends EventHead {
  type: 'call';
  method: string;
  ok: boolean;
  /** The ToolError code, when `ok` is false. */
  code?: string;
}

/** A rectangle in the pixels of the target's pictures (its viewport at the device's scale). */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where an act happened, in picture pixels; absent when the driver could not say. */
export interface StepPlace {
  /** The acted element's box, clipped to the viewport. */
  box: PixelBox;
  /** The point clicked (click and type; a press clicks nothing). */
  point?: { x: number; y: number };
  /** The viewport's size: a picture of another size scales the box by its width over this. */
  viewport: { width: number; height: number };
}

/** What a receipt says the act was: its op, the element (ref, role, label) and the typed text or key. */
export interface ReceiptFields {
  op: string;
  ref: string;
  role: string;
  label: string;
  text?: string;
  key?: string;
}

export interface ReceiptEvent extends EventHead, ReceiptFields, Partial<StepPlace> {
  type: 'receipt';
  receiptId: string;
}

export interface PictureEvent extends EventHead {
  type: 'picture';
  receiptId: string;
  /** Path inside the bundle folder, `pictures/<n>-<receiptId>.jpg`. */
  file: string;
  mime: 'image/jpeg';
  size: number;
  sha256: string;
}

export interface EndEvent extends EventHead {
  type: 'end';
  state: EndState;
  reason: string;
  /** Set by crash recovery when it cut off a partly written last line. */
  truncated?: { bytes: number; sha256: string; note: string };
  /** Files found in the folder at the end that no event refers to (e.g. a picture whose event never got written). */
  unreferencedFiles?: string[];
  /** The recording as it ended: its index's chain head and counts (bundles with a recording). */
  recording?: RecordingSummary;
}

export type BundleEvent = ConsentEvent | CallEvent | ReceiptEvent | PictureEvent | EndEvent;
/** An event as the writer hands it over: the chain fields are added on append. */
export type EventBody = DistributiveOmit<BundleEvent, 'seq' | 'prev'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** One events.ndjson line (with its newline) and the hash the next event's `prev` must carry. */
export function encodeEvent(seq: number, prev: string, body: EventBody): { line: Buffer; hash: string } {
  // seq and prev first so a reader sees the chain at the start of each line.
  const text = JSON.stringify({ seq, prev, ...body });
  return { line: Buffer.from(`${text}\n`, 'utf8'), hash: sha256Hex(Buffer.from(text, 'utf8')) };
}

export interface ParsedEvents {
  events: BundleEvent[];
  /** Hash of the last good line (GENESIS_PREV when there is none): the chain head. */
  head: string;
  /** Bytes up to and including the last newline. */
  completeBytes: number;
  /** Bytes after the last newline: a line whose write did not finish. Null when none. */
  tornTail: Buffer | null;
  /** The first line that breaks the format or the chain (1-based), or null. */
  problem: { line: number; message: string } | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses events.ndjson, checking each line's shape and the hash chain, stopping at the first problem. */
export function parseEvents(data: Buffer): ParsedEvents {
  const events: BundleEvent[] = [];
  const receipts = new Set<string>();
  let head = GENESIS_PREV;
  let start = 0;
  let problem: ParsedEvents['problem'] = null;
  for (;;) {
    const newline = data.indexOf(0x0a, start);
    if (newline === -1) break;
    const lineBytes = data.subarray(start, newline);
    start = newline + 1;
    if (problem) continue; // keep scanning only to find where the complete lines end
    const lineNo = events.length + 1;
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(lineBytes));
    } catch (error) {
      problem = { line: lineNo, message: `not a JSON line (${(error as Error).message})` };
      continue;
    }
    const message = checkEvent(value, events, head, receipts);
    if (message) {
      problem = { line: lineNo, message };
      continue;
    }
    const event = value as BundleEvent;
    if (event.type === 'receipt') receipts.add(event.receiptId);
    events.push(event);
    head = sha256Hex(lineBytes);
  }
  return {
    events,
    head,
    completeBytes: start,
    tornTail: start < data.length ? data.subarray(start) : null,
    problem,
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** What is wrong with a consent record's requester, or null when it is well formed. */
export function requesterProblem(r: unknown): string | null {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return 'consent.requester is not an object';
  const { pid, executable, otherUser, sharedWith, unknown } = r as Record<string, unknown>;
  if (pid !== null && !(Number.isSafeInteger(pid) && (pid as number) > 0)) return 'consent.requester.pid is not a pid or null';
  if (!isNullableString(executable) || !isNullableString(otherUser) || !isNullableString(unknown)) return 'consent.requester.executable, otherUser or unknown is not a string or null';
  if (!(Number.isSafeInteger(sharedWith) && (sharedWith as number) >= 0)) return 'consent.requester.sharedWith is not a count';
  return null;
}
const isNonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

const isPixel = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isPair = (v: unknown, a: string, b: string): boolean =>
  typeof v === 'object' && v !== null && isPixel((v as Record<string, unknown>)[a]) && isPixel((v as Record<string, unknown>)[b]);

/** Why a receipt's box, point and viewport are malformed (all or none of box and viewport), or null. */
export function checkPlace(e: Record<string, unknown>): string | null {
  if (e.box === undefined && e.viewport === undefined && e.point === undefined) return null;
  if (!isPair(e.box, 'x', 'y') || !isPair(e.box, 'width', 'height')) return 'receipt.box is not {x, y, width, height} in whole pixels';
  if (!isPair(e.viewport, 'width', 'height')) return 'receipt.viewport is not {width, height} in whole pixels';
  if (e.point !== undefined && !isPair(e.point, 'x', 'y')) return 'receipt.point is not {x, y} in whole pixels';
  return null;
}

/** Why `value` cannot be the next event after `before`, or null when it can. */
function checkEvent(value: unknown, before: BundleEvent[], expectedPrev: string, receipts: Set<string>): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const e = value as Record<string, unknown>;
  const index = before.length;
  if (e.seq !== index) return `seq is ${JSON.stringify(e.seq)}, expected ${index}`;
  if (typeof e.prev !== 'string' || !HEX64.test(e.prev)) return 'prev is not a SHA-256 hex digest';
  if (e.prev !== expectedPrev) return 'prev does not match the hash of the line before it (a line was changed, removed or moved)';
  if (!isTime(e.at)) return 'at is not a time';
  if (before.at(-1)?.type === 'end') return 'an event follows the end event';
  if (index === 0 && e.type !== 'consent') return 'the first event is not the consent record';
  switch (e.type) {
    case 'consent':
      if (index !== 0) return 'a second consent record';
      for (const field of ['bundleId', 'sessionId', 'appId', 'answeredBy'] as const) {
        if (!isNonEmpty(e[field])) return `consent.${field} is not a non-empty string`;
      }
      if (!isBundleId(e.bundleId)) return 'consent.bundleId is not a bundle id';
      if (!isString(e.agentName) || !isString(e.appName)) return 'consent.agentName or appName is not a string';
      if (!isTime(e.requestedAt) || !isTime(e.answeredAt)) return 'consent.requestedAt or answeredAt is not a time';
      if (e.answer !== 'allow') return 'consent.answer is not "allow"';
      return e.requester === undefined ? null : requesterProblem(e.requester);
    case 'call':
      if (!isNonEmpty(e.method)) return 'call.method is not a non-empty string';
      if (typeof e.ok !== 'boolean') return 'call.ok is not a boolean';
      if (!e.ok && !isNonEmpty(e.code)) return 'a failed call has no code';
      if ('token' in e) return 'a call records a token';
      return null;
    case 'receipt':
      if (!isString(e.receiptId) || !RECEIPT_ID_PATTERN.test(e.receiptId)) return 'receipt.receiptId is not a receipt id';
      if (receipts.has(e.receiptId)) return `receipt ${e.receiptId} is recorded twice`;
      if (!isNonEmpty(e.op)) return 'receipt.op is not a non-empty string';
      for (const field of ['ref', 'role', 'label'] as const) {
        if (!isString(e[field])) return `receipt.${field} is not a string`;
      }
      if (e.text !== undefined && !isString(e.text)) return 'receipt.text is not a string';
      if (e.key !== undefined && !isString(e.key)) return 'receipt.key is not a string';
      if ('value' in e) return 'a receipt records a field value';
      return checkPlace(e);
    case 'picture': {
      if (!isString(e.receiptId) || !receipts.has(e.receiptId)) return 'picture.receiptId names no earlier receipt';
      const match = isString(e.file) ? PICTURE_FILE_PATTERN.exec(e.file) : null;
      if (!match || match[2] !== e.receiptId) return `picture.file ${JSON.stringify(e.file)} is not pictures/<n>-<receiptId>.jpg`;
      if (e.mime !== 'image/jpeg') return 'picture.mime is not image/jpeg';
      if (!isCount(e.size)) return 'picture.size is not a byte count';
      if (typeof e.sha256 !== 'string' || !HEX64.test(e.sha256)) return 'picture.sha256 is not a SHA-256 hex digest';
      return null;
    }
    case 'end':
      if (e.state !== 'complete' && e.state !== 'killed') return 'end.state is not complete or killed';
      if (!isNonEmpty(e.reason)) return 'end.reason is not a non-empty string';
      if (e.recording !== undefined) return recordingSummaryProblem(e.recording);
      return null;
    default:
      return `unknown event type ${JSON.stringify(e.type)}`;
  }
}
