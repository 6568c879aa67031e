// The web shell's transport: one WebSocket to `<page dir>/bridge`, carrying the host's view
// and the UI's calls (src/ui-protocol/transports.ts). It reconnects with backoff; a call
// waits for a connection in progress, and is rejected when the socket drops under it. Live
// frames come over a socket of their own (frame-socket.ts).
import { BRIDGE_SOCKET_PATH, picturePath, type BridgeCall } from '../../../src/ui-protocol/index.js';
import { callMethods } from './call-bridge.js';
import { createFrameSocket } from './frame-socket.js';
import { parseServerMessage } from './guards.js';
import { PendingCalls } from './pending-calls.js';
import { createViewFanout } from './view-fanout.js';
import type { ConnectionStatus, UiBridge } from './types.js';

/** The part of the WebSocket API the bridge uses (the browser's, or `ws`'s in Node tests). */
export interface WebSocketLike {
  readonly readyState: number;
  /** Live frames come as binary messages: read them as ArrayBuffers (the browser's default is Blob). */
  binaryType?: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface WebSocketBridgeOptions {
  /** Defaults to the global WebSocket (Node 20 has none: tests pass `ws`'s). */
  WebSocket?: WebSocketConstructor;
  /** Reconnect delays: first, doubling up to max. Default 250 ms up to 5 s. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Where messages the bridge cannot read are reported. Default: console.error. */
  onProtocolError?: (error: Error) => void;
}

const OPEN = 1;

/** The socket URL for a page: the page's directory + `bridge`, on ws: (wss: for https:). */
export function bridgeSocketUrl(pageUrl: string): string {
  const url = new URL(BRIDGE_SOCKET_PATH, pageUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`The page URL must be http: or https:, got ${url.protocol}`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.hash = '';
  url.search = '';
  return url.href;
}

function messageText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return String(data);
}

export function createWebSocketBridge(pageUrl: string = location.href, options: WebSocketBridgeOptions = {}): UiBridge {
  const Socket = options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor | undefined);
  if (!Socket) throw new TypeError('No WebSocket constructor: pass options.WebSocket');
  const socketUrl = bridgeSocketUrl(pageUrl);
  const minMs = options.reconnectMinMs ?? 250;
  const maxMs = options.reconnectMaxMs ?? 5000;
  const reportProtocolError = options.onProtocolError ?? ((error: Error) => console.error('CutRight bridge:', error.message));

  const views = createViewFanout();
  const frames = createFrameSocket(pageUrl, Socket, { reconnectMinMs: minMs, reconnectMaxMs: maxMs, onProtocolError: reportProtocolError });
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  const calls = new PendingCalls();
  let status: ConnectionStatus = 'connecting';
  let socket: WebSocketLike | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let delay = minMs;
  let disposed = false;

  const setStatus = (next: ConnectionStatus): void => {
    if (next === status) return;
    status = next;
    for (const listener of [...statusListeners]) listener(next);
  };

  const connect = (): void => {
    retryTimer = null;
    if (disposed) return;
    setStatus('connecting');
    let ws: WebSocketLike;
    try {
      ws = new Socket(socketUrl);
    } catch (error) {
      reportProtocolError(error as Error);
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      delay = minMs;
      setStatus('connected');
      calls.flush((text) => ws.send(text));
    });
    ws.addEventListener('message', (event) => {
      if (socket !== ws) return;
      let message;
      try {
        message = parseServerMessage(messageText(event.data));
      } catch (error) {
        reportProtocolError(error as Error);
        return;
      }
      if (message.type === 'view') {
        views.publish(message.view);
        return;
      }
      calls.settle(message);
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      calls.rejectAll('the connection to the host was lost');
      scheduleReconnect();
    });
    // 'error' is always followed by 'close', which does the work.
    ws.addEventListener('error', () => {});
  };

  const scheduleReconnect = (): void => {
    if (disposed) return;
    setStatus('disconnected');
    retryTimer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, maxMs);
  };

  const invoke = (call: BridgeCall, args: unknown[]): Promise<unknown> => {
    if (disposed) return Promise.reject(new Error(`${call}: the bridge is closed`));
    const ws = socket;
    if (!ws) return Promise.reject(new Error(`${call}: not connected to the host`));
    // While a connection is being made, the call waits for it.
    return calls.start(call, args, ws.readyState === OPEN ? (text) => ws.send(text) : null);
  };

  connect();

  return {
    ...callMethods(invoke),
    subscribe: views.subscribe,
    subscribeFrames: (listener) => frames.subscribe(listener),
    pictureUrl(bundleId, picture) {
      return new URL(picturePath(bundleId, picture), pageUrl).href;
    },
    onConnection(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => void statusListeners.delete(listener);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const ws = socket;
      socket = null;
      calls.rejectAll('the bridge was closed');
      ws?.close();
      setStatus('disconnected');
      views.clear();
      frames.dispose();
      statusListeners.clear();
    },
  };
}
