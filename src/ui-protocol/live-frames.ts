// Live frames: the capture-safe frames of a live session's target, from the host to its UI.
// They do not go through the bridge table (calls with JSON arguments and results, answered
// once): a frame is binary, pushed, and may be dropped. In the web shell each is one binary
// message on a WebSocket of its own (FRAMES_SOCKET_PATH): a 4-byte big-endian length, the
// header as UTF-8 JSON, then the JPEG's bytes. In Electron each is one IPC message on a
// channel of its own carrying the header and the bytes. Both transports drop frames a slow UI
// cannot take (newest wins), and neither stands in front of a view or a call's reply.
import * as v from 'valibot';

/** The frames socket's path relative to the page's folder (beside the bridge socket). */
export const FRAMES_SOCKET_PATH = 'frames';

export const LiveFrameHeaderSchema = v.object({
  type: v.literal('frame'),
  sessionId: v.string(),
  /** 1, 2, 3, ... within the session. */
  seq: v.number(),
  /** When the target painted it (ms since the epoch). */
  at: v.number(),
  /** The JPEG's size in pixels. */
  width: v.number(),
  height: v.number(),
  /** The page's viewport in CSS pixels: click points (LiveSession.lastClick) are in these. */
  viewport: v.object({ width: v.number(), height: v.number() }),
});
export type LiveFrameHeader = v.InferOutput<typeof LiveFrameHeaderSchema>;

export interface LiveFrame extends LiveFrameHeader {
  /** The JPEG. */
  data: Uint8Array;
}

/** Encodes a live frame as one binary message. */
export function encodeLiveFrame(frame: LiveFrame): Uint8Array {
  const { data, ...header } = frame;
  const head = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(4 + head.length + data.length);
  new DataView(out.buffer).setUint32(0, head.length);
  out.set(head, 4);
  out.set(data, 4 + head.length);
  return out;
}

/** Decodes one binary message into a live frame, or throws a TypeError saying what is wrong. */
export function decodeLiveFrame(message: Uint8Array): LiveFrame {
  if (message.length < 4) throw new TypeError('live frame: shorter than its length prefix');
  const length = new DataView(message.buffer, message.byteOffset, message.byteLength).getUint32(0);
  if (4 + length > message.length) throw new TypeError('live frame: its header runs past the message');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(message.subarray(4, 4 + length)));
  } catch (error) {
    throw new TypeError(`live frame: its header is not JSON (${(error as Error).message})`);
  }
  const parsed = v.safeParse(LiveFrameHeaderSchema, header);
  if (!parsed.success) throw new TypeError(`live frame: ${parsed.issues[0]?.message ?? 'the header is not a frame header'}`);
  return { ...parsed.output, data: message.subarray(4 + length) };
}
