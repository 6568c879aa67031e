// NDJSON framing (HOST-SPEC section 1): one UTF-8 JSON message per line, both ways. Shared by
// the host's server and the client, so both split and cap lines the same way.
import { MAX_LINE_BYTES } from '../contract/methods.js';

export type FrameEvent = { kind: 'line'; line: string } | { kind: 'oversize'; bytes: number };

/** An unfinished line's buffer bigger than this is let go once the line ends, not kept for the next. */
const KEEP_BUFFER_BYTES = 64 * 1024;
const EMPTY = Buffer.alloc(0);

/**
 * Splits a byte stream into lines. Chunks may split or join lines anywhere, even inside a
 * multi-byte character. A line longer than `maxBytes` yields one `oversize` event and the
 * decoder stops (the caller closes the connection); nothing past it is buffered.
 *
 * An unfinished line is copied into one buffer of its own, so what it holds is its bytes
 * (at most twice over, as the buffer grows), however many chunks they came in: a client
 * sending a line a byte at a time cannot make the host keep a chunk object per byte.
 */
export class LineDecoder {
  private buffer: Buffer = EMPTY;
  private length = 0;
  private failed = false;

  constructor(private readonly maxBytes: number = MAX_LINE_BYTES) {}

  /** Bytes of the unfinished line so far. */
  get pendingBytes(): number {
    return this.length;
  }

  /** Memory held for the unfinished line (its buffer's size). */
  get heldBytes(): number {
    return this.buffer.length;
  }

  push(chunk: Buffer): FrameEvent[] {
    if (this.failed) return [];
    const events: FrameEvent[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const pieceBytes = end - start;
      if (this.length + pieceBytes > this.maxBytes) {
        this.failed = true;
        events.push({ kind: 'oversize', bytes: this.length + pieceBytes });
        this.reset(true);
        return events;
      }
      if (newline === -1) {
        if (pieceBytes > 0) this.append(chunk.subarray(start));
        return events;
      }
      const piece = chunk.subarray(start, newline);
      let bytes = piece;
      if (this.length > 0) {
        this.append(piece);
        bytes = this.buffer.subarray(0, this.length);
      }
      let line = bytes.toString('utf8');
      this.reset(this.buffer.length > KEEP_BUFFER_BYTES);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim().length > 0) events.push({ kind: 'line', line });
      start = newline + 1;
    }
  }

  private append(piece: Buffer): void {
    const needed = this.length + piece.length;
    if (needed > this.buffer.length) {
      // Doubling keeps copies linear; never past the limit, which `needed` is within.
      const size = Math.min(this.maxBytes, Math.max(needed, 4096, this.buffer.length * 2));
      const grown = Buffer.allocUnsafeSlow(size);
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    piece.copy(this.buffer, this.length);
    this.length = needed;
  }

  private reset(release: boolean): void {
    this.length = 0;
    if (release) this.buffer = EMPTY;
  }
}

/** One message as a line, ready to write. */
export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + '\n';
}
