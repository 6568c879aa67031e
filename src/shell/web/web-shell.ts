// The web shell: serves the renderer on 127.0.0.1 and carries the HostBridge over a WebSocket.
// Its URLs: the page at `http://127.0.0.1:<port>/<secret>/`, its assets under `assets/`, the
// bridge socket at `ws://127.0.0.1:<port>/<secret>/bridge`, the live frames' socket beside it
// at `.../<secret>/frames` (binary only; see ui-protocol/live-frames.ts) and pictures at
// `<page>/bundles/<bundleId>/<picture>` (the UI protocol's picture paths; a sealed recording's
// frames too). The secret is per launch, printed in the URL and kept on disk only in the data
// folder's user-only host.lock; requests for another Host, WebSocket upgrades from another Origin, and paths
// without the secret are refused.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as v from 'valibot';
import { WebSocketServer, type WebSocket } from 'ws';
import type { BundleStore } from '../../bundle/index.js';
import { contentTypeOf } from '../../host/content-type.js';
import type { Host } from '../../host/host.js';
import { dispatchBridgeCall, isBridgeRefusal, type BridgeCaller } from '../../ui-protocol/dispatch.js';
import {
  BRIDGE_SOCKET_PATH, FRAMES_SOCKET_PATH, WINDOW_ROLES, WebBridgeClientMessageSchema, encodeLiveFrame, pictureOfPath, type LiveFrame,
  type WebBridgeServerMessage,
} from '../../ui-protocol/index.js';
import { WRONG_ADDRESS_CSP, WRONG_ADDRESS_PAGE } from './wrong-address-page.js';

export interface WebShellOptions {
  host: Host;
  bundles: BundleStore;
  /** The built renderer (index.html and assets/). */
  rendererDir: string;
  /** 0 or undefined: any free port. */
  port?: number;
  log?: (message: string) => void;
}

export interface WebShell {
  /** The page's URL, secret included. */
  readonly url: string;
  /** The page's origin: the host itself, never a target. */
  readonly origin: string;
  close(): Promise<void>;
}

const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** Largest WebSocket message the page may send (settings with a long catalog fit easily). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const log = options.log ?? (() => {});
  const secret = randomBytes(24).toString('base64url');
  const secretBytes = Buffer.from(secret);
  let origin = '';
  let hostHeader = '';

  const hasSecret = (segment: string | undefined): boolean => {
    if (segment === undefined) return false;
    const given = Buffer.from(segment);
    return given.length === secretBytes.length && timingSafeEqual(given, secretBytes);
  };

  /** Splits `/<secret>/rest` and checks the secret; undefined when it is wrong. */
  const route = (rawUrl: string | undefined): string[] | undefined => {
    let pathname: string;
    try {
      pathname = new URL(rawUrl ?? '/', 'http://127.0.0.1').pathname;
    } catch {
      return undefined;
    }
    const [, first, ...rest] = pathname.split('/');
    if (!hasSecret(first)) return undefined;
    try {
      return rest.map((part) => decodeURIComponent(part));
    } catch {
      return undefined;
    }
  };

  const sendFile = async (res: http.ServerResponse, file: string, extraHeaders: Record<string, string> = {}) => {
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': contentTypeOf(file),
      'cache-control': 'no-store',
      ...extraHeaders,
    });
    createReadStream(file).pipe(res);
  };

  const server = http.createServer((req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    // The secret is in the URL: never send it on as a referrer.
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-frame-options', 'DENY');
    if (req.headers.host !== hostHeader) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('wrong host');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain' }).end('method not allowed');
      return;
    }
    const parts = route(req.url);
    if (!parts) {
      // No secret, or a wrong one: still 404, with a page that says how to find the right address.
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': WRONG_ADDRESS_CSP, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : WRONG_ADDRESS_PAGE);
      return;
    }
    if (parts.length === 1 && parts[0] === '') {
      void sendFile(res, path.join(options.rendererDir, 'index.html'), { 'content-security-policy': PAGE_CSP });
      return;
    }
    if (parts[0] === 'assets' && parts.length === 2 && parts[1] && !parts[1].includes('..')) {
      void sendFile(res, path.join(options.rendererDir, 'assets', path.basename(parts[1])));
      return;
    }
    const picture = pictureOfPath(parts);
    const file = picture && options.bundles.picturePath(picture.bundleId, picture.picture);
    if (file) {
      void sendFile(res, file);
      return;
    }
    if (!picture) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // A recording's frame: only of a sealed bundle whose manifest lists it (BundleStore.framePath).
    const notFound = () => void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    void options.bundles.framePath(picture.bundleId, picture.picture).then((frame) => (frame ? sendFile(res, frame) : notFound()), notFound);
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const parts = route(req.url);
    const which = parts?.length === 1 ? parts[0] : undefined;
    const allowed = req.headers.host === hostHeader && req.headers.origin === origin && (which === BRIDGE_SOCKET_PATH || which === FRAMES_SOCKET_PATH);
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => (which === BRIDGE_SOCKET_PATH ? serveBridge(ws, options.host, log) : serveFrames(ws, options.host)));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  hostHeader = `127.0.0.1:${port}`;
  origin = `http://${hostHeader}`;

  return {
    url: `${origin}/${secret}/`,
    origin,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Live frames to one page as binary messages, one in flight at a time: while one is being
 * written, newer frames replace each other in a single slot, so a slow page gets the newest
 * frame next and the rest are dropped, never queued (nothing waits on the page, the kill least).
 */
function liveFrameSender(ws: WebSocket): (frame: LiveFrame) => void {
  let inFlight = false;
  let next: LiveFrame | null = null;
  const push = (frame: LiveFrame): void => {
    if (ws.readyState !== ws.OPEN) return;
    inFlight = true;
    ws.send(encodeLiveFrame(frame), { binary: true }, () => {
      inFlight = false;
      const waiting = next;
      next = null;
      if (waiting) push(waiting);
    });
  };
  return (frame) => {
    if (inFlight) next = frame;
    else push(frame);
  };
}

/** The frames socket: every live frame, nothing asked; a page that sends anything on it is cut off. */
function serveFrames(ws: WebSocket, host: Host): void {
  const unsubscribe = host.bridge.subscribeFrames(liveFrameSender(ws));
  ws.on('close', unsubscribe);
  ws.on('error', () => ws.terminate());
  ws.on('message', () => ws.close(1008, 'the frames socket takes no messages'));
}

/** The web shell's one page shows every window's part (dialog, kill bar, sessions): it holds every role. */
const WEB_PAGE: BridgeCaller = { name: 'the web page', roles: WINDOW_ROLES };

function serveBridge(ws: WebSocket, host: Host, log: (message: string) => void): void {
  const send = (message: WebBridgeServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const unsubscribe = host.bridge.subscribe((view) => send({ type: 'view', view }));
  ws.on('close', unsubscribe);
  ws.on('error', () => ws.terminate());
  ws.on('message', (data, isBinary) => {
    let raw: unknown;
    try {
      if (isBinary) throw new Error('binary message');
      raw = JSON.parse(String(data));
    } catch {
      log('web bridge: dropped a message that is not JSON');
      return;
    }
    const parsed = v.safeParse(WebBridgeClientMessageSchema, raw);
    if (!parsed.success) {
      // Without a call and an id there is no one to answer.
      log('web bridge: dropped a message that is not a call');
      return;
    }
    const { id, call, args } = parsed.output;
    dispatchBridgeCall(host.bridge, WEB_PAGE, call, args).then(
      (value) => send({ type: 'reply', id, ok: true, value }),
      (error: unknown) => {
        if (!isBridgeRefusal(error)) log(`web bridge: ${call} failed: ${(error as Error).message}`);
        send({ type: 'reply', id, ok: false, error: { message: (error as Error).message } });
      },
    );
  });
}
