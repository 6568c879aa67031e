// NDJSON framing (HOST-SPEC section 1): one UTF-8 JSON message per line, both ways. Shared by
// the host's server and the client, so both split and cap lines the same way.
import { StringDecoder } from 'node:string_decoder';
import { MAX_LINE_BYTES } from '../contract/methods.js';

export type FrameEvent = { kind: 'line'; line: string } | { kind: 'oversize'; bytes: number };

/**
 * Splits a byte stream into lines. Chunks may split or join lines anywhere, even inside a
 * multi-byte character. A line longer than `maxBytes` yields one `oversize` event and the
 * decoder stops (the caller closes the connection); nothing past it is buffered.
 */
export class LineDecoder {
  private readonly decoder = new StringDecoder('utf8');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private failed = false;

  constructor(private readonly maxBytes: number = MAX_LINE_BYTES) {}

  push(chunk: Buffer): FrameEvent[] {
    if (this.failed) return [];
    const events: FrameEvent[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const pieceBytes = end - start;
      if (this.pendingBytes + pieceBytes > this.maxBytes) {
        this.failed = true;
        this.pending = [];
        events.push({ kind: 'oversize', bytes: this.pendingBytes + pieceBytes });
        return events;
      }
      if (newline === -1) {
        if (pieceBytes > 0) {
          this.pending.push(chunk.subarray(start));
          this.pendingBytes += pieceBytes;
        }
        return events;
      }
      const piece = chunk.subarray(start, newline);
      const bytes = this.pendingBytes === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.pendingBytes = 0;
      let line = this.decoder.write(bytes) + this.decoder.end();
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim().length > 0) events.push({ kind: 'line', line });
      start = newline + 1;
    }
  }
}

/** One message as a line, ready to write. */
export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + '\n';
}
