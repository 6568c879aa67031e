// The writer of one open bundle. Every record is on disk (written and fsynced) before its
// promise resolves; records of one bundle run one at a time, in call order.
import { constants } from 'node:fs';
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { SerialQueue } from '../common/serial-queue.js';
import { fsyncDir, writeAll, writeNewFile } from './durable.js';
import { asWriteError } from './errors.js';
import {
  EVENTS_FILE, MAX_PICTURE_BYTES, PICTURES_DIR, RECEIPT_ID_PATTERN, checkPlace, encodeEvent, pictureFileName, sha256Hex,
  type BundleEvent, type EndState, type EventBody, type ReceiptFields, type StepPlace,
} from './format.js';
import { writeSeal } from './manifest.js';
import { FRAME_FILE_PATTERN, RECORDING_DIR, type GapReason } from './recording-format.js';
import type { BundleRecording, RecordingWriter } from './recording.js';
import type { SigningKey } from './signing.js';
import { verifyBundle } from './verify.js';

/** One session's bundle, open for records until sealed. */
export interface SessionBundle {
  readonly bundleId: string;
  /** Records a call's method and outcome (never its params, never the token). */
  recordCall(entry: { method: string; ok: boolean; code?: string; at?: number }): Promise<void>;
  /** Records a receipt. Only the named fields are written: no field value is ever stored. */
  recordReceipt(receipt: ReceiptInput): Promise<void>;
  /** Stores a JPEG of the target after an act, as pictures/<n>-<receiptId>.jpg, then records it. */
  recordPicture(receiptId: string, picture: { mime: string; data: Buffer }): Promise<void>;
  /** The session's continuous recording (frames and gaps), written beside the events. */
  readonly recording: BundleRecording;
  /**
   * Records the end and seals. Idempotent: the first recorded end wins; later calls resolve
   * without change. The recording is closed first (every frame already queued is written) and
   * ends with a gap saying why; the end event carries its summary.
   */
  seal(state: 'complete' | 'killed', reason: string): Promise<void>;
  /** True once manifest.json and manifest.sig are on disk and verify. */
  readonly sealed: boolean;
}

/** One act's receipt, as the host hands it over. */
export interface ReceiptInput extends ReceiptFields {
  receiptId: string;
  /** Where the act happened, in picture pixels (docs/bundle.md). */
  place?: StepPlace;
  at?: number;
}

/** The place's fields exactly (box, point, viewport; nothing else reaches the file), checked. */
function placeOf(place: StepPlace | undefined): Partial<StepPlace> {
  if (place === undefined) return {};
  const { box, point, viewport } = place ?? {};
  const fields: Partial<StepPlace> = {
    box: { x: box?.x, y: box?.y, width: box?.width, height: box?.height },
    viewport: { width: viewport?.width, height: viewport?.height },
    ...(point !== undefined ? { point: { x: point?.x, y: point?.y } } : {}),
  } as Partial<StepPlace>;
  const problem = checkPlace(fields as Record<string, unknown>);
  if (problem) throw new TypeError(`recordReceipt: ${problem}, got ${JSON.stringify(place)}`);
  return fields;
}

/** What the writer needs from its store. */
export interface WriterContext {
  now: () => number;
  signingKey: () => Promise<SigningKey>;
  onSealed: (bundleId: string) => void;
}

/** Where an existing events file stands, for a writer that continues it. */
export interface ChainPosition {
  seq: number;
  head: string;
  length: number;
  receipts: Iterable<string>;
  pictureFiles: Iterable<string>;
}

const END_STATES: ReadonlySet<string> = new Set(['complete', 'killed']);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

function requireString(value: unknown, name: string, nonEmpty = false): asserts value is string {
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
    throw new TypeError(`${name} must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${JSON.stringify(value)}`);
  }
}

function timeOr(value: unknown, name: string, fallback: () => number): number {
  if (value === undefined) return fallback();
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${name} must be a time in ms, got ${JSON.stringify(value)}`);
  return value;
}

function requireReceiptId(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string' || !RECEIPT_ID_PATTERN.test(value)) {
    throw new TypeError(`${name} must match ${RECEIPT_ID_PATTERN} (it becomes part of a file name), got ${JSON.stringify(value)}`);
  }
}

export class SessionBundleWriter implements SessionBundle {
  /** Records of this bundle run one at a time, in call order, each after every earlier one settled. */
  private readonly writes = new SerialQueue();
  private seq: number;
  private head: string;
  /** Bytes of events.ndjson that are known good; a failed append may leave more, cut on the next one. */
  private goodLength: number;
  private mayHavePartialLine = false;
  private readonly receipts: Set<string>;
  private readonly pictureFiles: Set<string>;
  private pictureCount: number;
  private ended: { state: EndState; reason: string } | null = null;
  private isSealed = false;

  constructor(
    readonly bundleId: string,
    private readonly dir: string,
    position: ChainPosition,
    private readonly context: WriterContext,
    /** The end already recorded (a crash between the end event and the seal), if any. */
    ended: { state: EndState; reason: string } | null = null,
    /** The recording's writer; an older bundle has none. */
    private readonly recorder: RecordingWriter | null = null,
  ) {
    this.ended = ended;
    this.seq = position.seq;
    this.head = position.head;
    this.goodLength = position.length;
    this.receipts = new Set(position.receipts);
    this.pictureFiles = new Set(position.pictureFiles);
    this.pictureCount = this.pictureFiles.size;
  }

  get sealed(): boolean {
    return this.isSealed;
  }

  get recording(): BundleRecording {
    if (!this.recorder) throw new Error(`bundle ${this.bundleId} has no recording (it was made before recordings existed)`);
    return this.recorder;
  }

  async recordCall(entry: { method: string; ok: boolean; code?: string; at?: number }): Promise<void> {
    requireString(entry?.method, 'recordCall: method', true);
    if (typeof entry.ok !== 'boolean') throw new TypeError(`recordCall: ok must be a boolean, got ${JSON.stringify(entry.ok)}`);
    if (!entry.ok) requireString(entry.code, 'recordCall: code (required when ok is false)', true);
    const at = timeOr(entry.at, 'recordCall: at', this.context.now);
    // Built field by field: whatever else the caller's object holds (a token) is never written.
    const body: EventBody = entry.ok
      ? { type: 'call', at, method: entry.method, ok: true }
      : { type: 'call', at, method: entry.method, ok: false, code: entry.code as string };
    return this.writes.run(() => this.append(body));
  }

  async recordReceipt(receipt: ReceiptInput): Promise<void> {
    requireReceiptId(receipt?.receiptId, 'recordReceipt: receiptId');
    requireString(receipt.op, 'recordReceipt: op', true);
    requireString(receipt.ref, 'recordReceipt: ref');
    requireString(receipt.role, 'recordReceipt: role');
    requireString(receipt.label, 'recordReceipt: label');
    if (receipt.text !== undefined) requireString(receipt.text, 'recordReceipt: text');
    if (receipt.key !== undefined) requireString(receipt.key, 'recordReceipt: key');
    const at = timeOr(receipt.at, 'recordReceipt: at', this.context.now);
    const place = placeOf(receipt.place);
    const body: EventBody = {
      type: 'receipt', at, receiptId: receipt.receiptId, op: receipt.op, ref: receipt.ref, role: receipt.role, label: receipt.label,
      ...(receipt.text !== undefined ? { text: receipt.text } : {}),
      ...(receipt.key !== undefined ? { key: receipt.key } : {}),
      ...place,
    };
    return this.writes.run(async () => {
      if (this.receipts.has(receipt.receiptId)) throw new Error(`recordReceipt: receipt ${receipt.receiptId} is already recorded in bundle ${this.bundleId}`);
      await this.append(body);
      this.receipts.add(receipt.receiptId);
    });
  }

  async recordPicture(receiptId: string, picture: { mime: string; data: Buffer }): Promise<void> {
    requireReceiptId(receiptId, 'recordPicture: receiptId');
    if (picture?.mime !== 'image/jpeg') throw new TypeError(`recordPicture: mime must be image/jpeg, got ${JSON.stringify(picture?.mime)}`);
    if (!Buffer.isBuffer(picture.data)) throw new TypeError('recordPicture: data must be a Buffer');
    if (picture.data.length < JPEG_MAGIC.length || !picture.data.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) {
      throw new TypeError('recordPicture: data is not a JPEG (it does not start with FF D8 FF)');
    }
    if (picture.data.length > MAX_PICTURE_BYTES) throw new TypeError(`recordPicture: data is ${picture.data.length} bytes, more than ${MAX_PICTURE_BYTES}`);
    const data = Buffer.from(picture.data); // a copy: the caller may reuse its buffer while we wait our turn
    return this.writes.run(async () => {
      if (!this.receipts.has(receiptId)) throw new Error(`recordPicture: receipt ${receiptId} is not recorded in bundle ${this.bundleId}`);
      this.assertOpen('recordPicture');
      // The number is used up even if the write fails, so a retry never meets a half-written file.
      const file = pictureFileName(++this.pictureCount, receiptId);
      const at = this.context.now();
      try {
        // The picture is durable before the event that points at it.
        await writeNewFile(join(this.dir, file), data);
        await fsyncDir(join(this.dir, PICTURES_DIR));
      } catch (error) {
        throw asWriteError(`bundle ${this.bundleId}: writing ${file}`, error);
      }
      await this.append({ type: 'picture', at, receiptId, file, mime: 'image/jpeg', size: data.length, sha256: sha256Hex(data) });
    });
  }

  async seal(state: 'complete' | 'killed', reason: string): Promise<void> {
    return this.sealWith(state, reason, {});
  }

  /** seal(), with notes for the end event (crash recovery's `truncated`). */
  async sealWith(state: EndState, reason: string, notes: { truncated?: { bytes: number; sha256: string; note: string } }): Promise<void> {
    if (!END_STATES.has(state)) throw new TypeError(`seal: state must be complete or killed, got ${JSON.stringify(state)}`);
    requireString(reason, 'seal: reason', true);
    return this.writes.run(async () => {
      if (this.isSealed) return;
      if (!this.ended) {
        const at = this.context.now();
        // Every frame queued before the end is written first; the recording's last line says why it stopped.
        const recording = await this.recorder?.close(at, gapReasonOf(state, reason));
        const unreferenced = await this.unreferencedFiles();
        await this.append({
          type: 'end', at, state, reason,
          ...(notes.truncated ? { truncated: notes.truncated } : {}),
          ...(unreferenced.length ? { unreferencedFiles: unreferenced } : {}),
          ...(recording ? { recording } : {}),
        });
      }
      // A seal that failed earlier (after the end was recorded) is simply written again here.
      const key = await this.context.signingKey();
      try {
        await writeSeal(this.dir, key, `bundle ${this.bundleId}`, this.recorder?.digests);
      } catch (error) {
        throw asWriteError(`bundle ${this.bundleId}: sealing`, error);
      }
      const check = await verifyBundle(this.dir, { publicKeyPem: key.publicKeyPem });
      if (!check.ok) throw new Error(`bundle ${this.bundleId}: the seal just written does not verify: ${check.file}: ${check.problem}`);
      this.isSealed = true;
      this.context.onSealed(this.bundleId);
    });
  }

  private assertOpen(what: string): void {
    if (this.ended) throw new Error(`${what}: bundle ${this.bundleId} has ended (${this.ended.state}: ${this.ended.reason}); nothing more can be recorded`);
  }

  /** Picture and frame files no line refers to: their write failed (or the host died) before their line was recorded. */
  private async unreferencedFiles(): Promise<string[]> {
    const names = await readdir(join(this.dir, PICTURES_DIR)).catch(() => [] as string[]);
    const pictures = names.map((name) => `${PICTURES_DIR}/${name}`).filter((path) => !this.pictureFiles.has(path));
    const frameNames = this.recorder ? await readdir(join(this.dir, RECORDING_DIR)).catch(() => [] as string[]) : [];
    const frames = frameNames
      .map((name) => `${RECORDING_DIR}/${name}`)
      .filter((path) => FRAME_FILE_PATTERN.test(path) && !this.recorder?.references(path));
    return [...pictures, ...frames].sort();
  }

  /** Appends one event: written and fsynced before it resolves; on failure the chain does not advance. */
  private async append(body: EventBody): Promise<void> {
    this.assertOpen(`recording ${body.type}`);
    const { line, hash } = encodeEvent(this.seq, this.head, body);
    const path = join(this.dir, EVENTS_FILE);
    let handle: FileHandle | undefined;
    try {
      // No O_CREAT: if the bundle folder vanished or was replaced, fail instead of starting a new file.
      handle = await open(path, constants.O_WRONLY | constants.O_APPEND);
      const info = await handle.stat();
      const size = info.size;
      // (A non-regular file has no meaningful size; it cannot be sealed either: seal refuses it.)
      if (info.isFile() && size !== this.goodLength) {
        if (!(this.mayHavePartialLine && size > this.goodLength)) {
          throw new Error(`bundle ${this.bundleId}: ${EVENTS_FILE} is ${size} bytes, expected ${this.goodLength}: it was changed by something else`);
        }
        // A failed append left part of a line: cut it so the chain stays whole.
        await handle.truncate(this.goodLength);
      }
      await writeAll(handle, line);
      await handle.sync();
    } catch (error) {
      this.mayHavePartialLine = true;
      throw asWriteError(`bundle ${this.bundleId}: appending a ${body.type} event to ${EVENTS_FILE}`, error);
    } finally {
      await handle?.close().catch(() => undefined);
    }
    this.mayHavePartialLine = false;
    this.goodLength += line.length;
    this.head = hash;
    this.seq += 1;
    if (body.type === 'picture') this.pictureFiles.add(body.file);
    if (body.type === 'end') this.ended = { state: body.state, reason: body.reason };
  }
}

/** The recording's last gap: why nothing more was recorded. */
function gapReasonOf(state: EndState, reason: string): string {
  const gap = (why: GapReason, detail?: string): string => (detail ? `${why}: ${detail}` : why);
  if (state === 'complete') return gap('session ended');
  if (reason.startsWith('target closed')) return gap('target closed');
  if (reason.startsWith('target crashed')) return gap('target closed', reason);
  return gap('session killed', reason);
}

/** The chain position after `events`, for a writer continuing an existing file. */
export function positionAfter(events: BundleEvent[], head: string, length: number): ChainPosition {
  return {
    seq: events.length,
    head,
    length,
    receipts: events.flatMap((e) => (e.type === 'receipt' ? [e.receiptId] : [])),
    pictureFiles: events.flatMap((e) => (e.type === 'picture' ? [e.file] : [])),
  };
}
