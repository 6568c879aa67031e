// The web shell's live frames: a WebSocket of their own at `<page dir>/frames`, binary
// messages only (src/ui-protocol/live-frames.ts), opened while someone shows frames and closed
// when no one does. Kept apart from the bridge socket so that a frame being sent never stands
// in front of a view or a call's reply (the kill's above all), and a page that shows no live
// view is sent no frames at all.
import { FRAMES_SOCKET_PATH, decodeLiveFrame, type LiveFrame } from '../../../src/ui-protocol/index.js';
import type { WebSocketConstructor, WebSocketLike } from './websocket-bridge.js';

export interface FrameSocketOptions {
  reconnectMinMs: number;
  reconnectMaxMs: number;
  onProtocolError: (error: Error) => void;
}

/** The frames socket's URL for a page: the page's directory + `frames`, on ws: (wss: for https:). */
export function framesSocketUrl(pageUrl: string): string {
  const url = new URL(FRAMES_SOCKET_PATH, pageUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.hash = '';
  url.search = '';
  return url.href;
}

/** Subscribes to live frames over their own socket; `dispose` closes it for good. */
export function createFrameSocket(pageUrl: string, Socket: WebSocketConstructor, options: FrameSocketOptions) {
  const url = framesSocketUrl(pageUrl);
  const listeners = new Set<(frame: LiveFrame) => void>();
  let socket: WebSocketLike | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let delay = options.reconnectMinMs;
  let disposed = false;

  const wanted = (): boolean => !disposed && listeners.size > 0;

  const connect = (): void => {
    retryTimer = null;
    if (!wanted() || socket) return;
    let ws: WebSocketLike;
    try {
      ws = new Socket(url);
    } catch (error) {
      options.onProtocolError(error as Error);
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.binaryType = 'arraybuffer';
    ws.addEventListener('open', () => {
      if (socket === ws) delay = options.reconnectMinMs;
    });
    ws.addEventListener('message', (event) => {
      if (socket !== ws) return;
      let frame: LiveFrame;
      try {
        if (typeof event.data === 'string') throw new TypeError('live frame: a text message on the frames socket');
        const bytes = event.data instanceof ArrayBuffer ? new Uint8Array(event.data) : (event.data as Uint8Array);
        frame = decodeLiveFrame(bytes);
      } catch (error) {
        options.onProtocolError(error as Error);
        return;
      }
      for (const listener of [...listeners]) listener(frame);
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      scheduleReconnect();
    });
    // 'error' is always followed by 'close', which does the work.
    ws.addEventListener('error', () => {});
  };

  const scheduleReconnect = (): void => {
    if (!wanted() || retryTimer) return;
    retryTimer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, options.reconnectMaxMs);
  };

  const disconnect = (): void => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    const ws = socket;
    socket = null;
    ws?.close();
  };

  return {
    subscribe(listener: (frame: LiveFrame) => void): () => void {
      if (disposed) return () => {};
      listeners.add(listener);
      connect();
      return () => {
        listeners.delete(listener);
        if (!wanted()) disconnect();
      };
    },
    dispose(): void {
      disposed = true;
      listeners.clear();
      disconnect();
    },
  };
}
