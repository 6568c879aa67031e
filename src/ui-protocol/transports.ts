// The two transports that carry the bridge: the web shell's WebSocket and Electron's preload.
// Both carry the same thing: the HostView pushed on every change, and calls by name with
// positional arguments (checked against the table by the host, results by the renderer).
import * as v from 'valibot';
import type { BridgeCall } from './calls.js';
import type { LiveFrameHeader } from './live-frames.js';
import { HostViewSchema, type HostView } from './view.js';

/** The bridge socket's path relative to the page's folder (the web shell serves both). */
export const BRIDGE_SOCKET_PATH = 'bridge';

/**
 * page → host, one JSON object a message: a call, answered by a reply with the same id. The
 * envelope is checked here; the call's name and arguments by the dispatcher, against the table,
 * so that a bad call still gets a reply saying what was wrong.
 */
export const WebBridgeClientMessageSchema = v.object({
  type: v.literal('call'),
  id: v.pipe(v.number(), v.safeInteger()),
  call: v.unknown(),
  args: v.unknown(),
});
export type WebBridgeClientMessage = { type: 'call'; id: number; call: BridgeCall; args: unknown[] };

/** host → page: the view, or the reply to one call. */
export const WebBridgeServerMessageSchema = v.variant('type', [
  v.object({ type: v.literal('view'), view: HostViewSchema }),
  v.variant('ok', [
    v.object({ type: v.literal('reply'), id: v.number(), ok: v.literal(true), value: v.unknown() }),
    v.object({ type: v.literal('reply'), id: v.number(), ok: v.literal(false), error: v.object({ message: v.string() }) }),
  ]),
]);
export type WebBridgeServerMessage = v.InferOutput<typeof WebBridgeServerMessageSchema>;

/**
 * What an Electron preload exposes as `window.cutright` (via contextBridge). The renderer
 * wraps it into its bridge; the main process checks every call's sender and arguments.
 */
export interface ElectronBridgeApi {
  call(call: BridgeCall, args: unknown[]): Promise<unknown>;
  onView(listener: (view: HostView) => void): () => void;
  /** Live frames (main and kill windows); the main process sends one a window until the page has taken it. */
  onFrame?(listener: (header: LiveFrameHeader, data: Uint8Array) => void): () => void;
  /** The URL the page's relative picture paths resolve against. */
  pictureBase: string;
}
