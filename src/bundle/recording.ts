// The writer of a bundle's recording (recording-format.ts): frames and gaps, durable in order,
// on a queue of its own so the events (receipts an answer waits for) never wait behind frames.
// Frames that arrive while a write is on disk are committed together: each file written and
// fsynced, the folder fsynced once, their index lines appended and fsynced once.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir, writeAll, writeNewFile } from './durable.js';
import { asWriteError } from './errors.js';
import { sha256Hex } from './format.js';
import {
  RECORDING_DIR, RECORDING_INDEX, encodeRecordingLine, frameFileName, summarizeRecording,
  type RecordingLine, type RecordingLineBody, type RecordingSummary,
} from './recording-format.js';

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
/** A frame bigger than this is refused: a JPEG of a screen is tens to hundreds of KiB. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

export interface FrameInput {
  /** The JPEG bytes. */
  data: Buffer;
  /** When it was painted (ms since the epoch). */
  at: number;
  width: number;
  height: number;
}

/** A bundle's recording, open until the bundle's end. */
export interface BundleRecording {
  /** Records one frame; resolves once the frame and its index line are on disk. */
  recordFrame(frame: FrameInput): Promise<void>;
  /** Records the start of a gap (nothing recorded from `at` until the next frame), with its reason. */
  recordGap(at: number, reason: string): Promise<void>;
  /** Frames and bytes recorded so far (durable or on their way). */
  readonly frames: number;
  readonly bytes: number;
}

interface Pending {
  body: RecordingLineBody;
  data?: Buffer;
  done: { resolve: () => void; reject: (error: unknown) => void };
}

export interface RecordingPosition {
  lines: readonly RecordingLine[];
  head: string;
  length: number;
  /** The highest frame number on disk (in the index or as an unreferenced file). */
  lastFrameNumber: number;
}

export class RecordingWriter implements BundleRecording {
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private seq: number;
  private head: string;
  private goodLength: number;
  private mayHavePartialLine = false;
  /** Frame numbers and bytes handed out (a failed write uses its number up). */
  private frameCount: number;
  private byteCount: number;
  private durableFrames: number;
  private durableGaps: number;
  private durableBytes: number;
  private closed = false;
  /** The digests of the frame files written by this writer, so the seal need not read them again. */
  readonly digests = new Map<string, { size: number; sha256: string }>();
  /** Frame files the index names. */
  private readonly indexed = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly label: string,
    position: RecordingPosition,
  ) {
    this.seq = position.lines.length;
    this.head = position.head;
    this.goodLength = position.length;
    const summary = summarizeRecording(position.lines, position.head);
    this.frameCount = position.lastFrameNumber;
    this.byteCount = summary.bytes;
    this.durableFrames = summary.frames;
    this.durableGaps = summary.gaps;
    this.durableBytes = summary.bytes;
    for (const line of position.lines) if (line.type === 'frame') this.indexed.add(line.file);
  }

  /** True when the index names `file`. */
  references(file: string): boolean {
    return this.indexed.has(file);
  }

  get frames(): number {
    return this.durableFrames + this.pending.filter((item) => item.data).length;
  }

  get bytes(): number {
    return this.byteCount;
  }

  recordFrame(frame: FrameInput): Promise<void> {
    if (!Buffer.isBuffer(frame?.data)) return Promise.reject(new TypeError('recordFrame: data must be a Buffer'));
    if (frame.data.length < JPEG_MAGIC.length || !frame.data.subarray(0, 3).equals(JPEG_MAGIC)) {
      return Promise.reject(new TypeError('recordFrame: data is not a JPEG (it does not start with FF D8 FF)'));
    }
    if (frame.data.length > MAX_FRAME_BYTES) return Promise.reject(new TypeError(`recordFrame: data is ${frame.data.length} bytes, more than ${MAX_FRAME_BYTES}`));
    if (!Number.isFinite(frame.at)) return Promise.reject(new TypeError(`recordFrame: at must be a time in ms, got ${JSON.stringify(frame.at)}`));
    if (!Number.isSafeInteger(frame.width) || !Number.isSafeInteger(frame.height) || frame.width < 0 || frame.height < 0) {
      return Promise.reject(new TypeError('recordFrame: width and height must be pixel counts'));
    }
    // The number is used up even if the write fails, so a retry never meets a half-written file.
    const file = frameFileName(++this.frameCount);
    this.byteCount += frame.data.length;
    const body: RecordingLineBody = {
      type: 'frame', at: frame.at, file, size: frame.data.length, sha256: sha256Hex(frame.data), width: frame.width, height: frame.height,
    };
    return this.enqueue(body, frame.data);
  }

  recordGap(at: number, reason: string): Promise<void> {
    if (!Number.isFinite(at)) return Promise.reject(new TypeError(`recordGap: at must be a time in ms, got ${JSON.stringify(at)}`));
    if (typeof reason !== 'string' || reason.length === 0) return Promise.reject(new TypeError('recordGap: reason must be a non-empty string'));
    return this.enqueue({ type: 'gap', at, reason });
  }

  /**
   * Writes what is queued, then takes no more. With a reason, the recording ends with a gap
   * line saying why (the session's end). Returns the summary the end event carries.
   */
  async close(at: number, reason?: string): Promise<RecordingSummary> {
    if (!this.closed) {
      const last = reason ? this.recordGap(at, reason).catch(() => undefined) : Promise.resolve();
      this.closed = true;
      await last;
    }
    while (this.flushing) await this.flushing;
    return { frames: this.durableFrames, gaps: this.durableGaps, bytes: this.durableBytes, head: this.head };
  }

  private enqueue(body: RecordingLineBody, data?: Buffer): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.label}: the recording has ended; nothing more can be recorded`));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ body, ...(data ? { data } : {}), done: { resolve, reject } });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.commit(batch);
        for (const item of batch) item.done.resolve();
      } catch (error) {
        for (const item of batch) item.done.reject(error);
      }
    }
    this.flushing = null;
  }

  /** Frame files first (each fsynced, then the folder), then their lines: an index line never names a file not on disk. */
  private async commit(batch: Pending[]): Promise<void> {
    const withFiles = batch.filter((item) => item.data);
    try {
      await Promise.all(withFiles.map((item) => writeNewFile(join(this.dir, (item.body as { file: string }).file), item.data as Buffer)));
      if (withFiles.length > 0) await fsyncDir(join(this.dir, RECORDING_DIR));
    } catch (error) {
      throw asWriteError(`${this.label}: writing frames`, error);
    }
    let seq = this.seq;
    let head = this.head;
    const chunks: Buffer[] = [];
    for (const item of batch) {
      const encoded = encodeRecordingLine(seq, head, item.body);
      chunks.push(encoded.line);
      head = encoded.hash;
      seq += 1;
    }
    const bytes = Buffer.concat(chunks);
    await this.append(bytes);
    this.seq = seq;
    this.head = head;
    for (const item of batch) {
      if (item.body.type === 'frame') {
        this.durableFrames += 1;
        this.durableBytes += item.body.size;
        this.digests.set(item.body.file, { size: item.body.size, sha256: item.body.sha256 });
        this.indexed.add(item.body.file);
      } else this.durableGaps += 1;
    }
  }

  private async append(bytes: Buffer): Promise<void> {
    let handle: FileHandle | undefined;
    try {
      handle = await open(join(this.dir, RECORDING_INDEX), constants.O_WRONLY | constants.O_APPEND);
      const size = (await handle.stat()).size;
      if (size !== this.goodLength) {
        if (!(this.mayHavePartialLine && size > this.goodLength)) {
          throw new Error(`${this.label}: ${RECORDING_INDEX} is ${size} bytes, expected ${this.goodLength}: it was changed by something else`);
        }
        await handle.truncate(this.goodLength);
      }
      await writeAll(handle, bytes);
      await handle.sync();
    } catch (error) {
      this.mayHavePartialLine = true;
      throw asWriteError(`${this.label}: appending to ${RECORDING_INDEX}`, error);
    } finally {
      await handle?.close().catch(() => undefined);
    }
    this.mayHavePartialLine = false;
    this.goodLength += bytes.length;
  }
}
