// The frames socket against a real WebSocket server: opened with the first subscriber,
// frames decoded and handed out, a broken message reported and skipped, reconnected after a
// drop while someone still watches, closed with the last subscriber.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodeLiveFrame, type LiveFrame } from '../../../src/ui-protocol/index.js';
import { createFrameSocket, framesSocketUrl } from './frame-socket.js';
import type { WebSocketConstructor } from './websocket-bridge.js';
import { WebSocket as NodeWebSocket } from 'ws';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/s3cret/frames' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const sockets = new Set<WebSocket>();
  let connections = 0;
  wss.on('connection', (ws) => {
    connections += 1;
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
  });
  cleanups.push(() => new Promise<void>((resolve) => {
    for (const ws of sockets) ws.terminate();
    wss.close(() => resolve());
  }));
  const port = (wss.address() as { port: number }).port;
  return { sockets, connections: () => connections, pageUrl: `http://127.0.0.1:${port}/s3cret/` };
}

function waitFor<T>(probe: () => T | undefined | false, what: string, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      const value = probe();
      if (value) return resolve(value);
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 5);
    };
    tick();
  });
}

const FRAME: LiveFrame = {
  type: 'frame', sessionId: 's-1', seq: 1, at: 1, width: 2, height: 2, viewport: { width: 2, height: 2 }, data: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]),
};

describe('the frames socket', () => {
  it('is the page folder + frames', () => {
    expect(framesSocketUrl('http://127.0.0.1:5/abc/?window=kill#x')).toBe('ws://127.0.0.1:5/abc/frames');
  });

  it('connects with the first subscriber, hands out frames, skips a broken one, reconnects, and closes with the last', async () => {
    const server = await startServer();
    const errors: Error[] = [];
    const socket = createFrameSocket(server.pageUrl, NodeWebSocket as unknown as WebSocketConstructor, {
      reconnectMinMs: 10, reconnectMaxMs: 50, onProtocolError: (error) => errors.push(error),
    });
    cleanups.push(() => socket.dispose());
    expect(server.connections()).toBe(0);

    const seen: LiveFrame[] = [];
    const stop = socket.subscribe((frame) => seen.push(frame));
    await waitFor(() => server.sockets.size === 1, 'a connection');
    const [ws] = [...server.sockets];
    ws!.send(Buffer.from([1, 2]));
    ws!.send(Buffer.from(encodeLiveFrame(FRAME)));
    await waitFor(() => seen.length === 1, 'a frame');
    expect({ ...seen[0], data: [...seen[0]!.data] }).toEqual({ ...FRAME, data: [...FRAME.data] });
    expect(errors.map((e) => e.message)).toEqual(['live frame: shorter than its length prefix']);

    ws!.terminate();
    await waitFor(() => server.connections() === 2 && server.sockets.size === 1, 'the reconnect');
    stop();
    await waitFor(() => server.sockets.size === 0, 'the socket closed with the last subscriber');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.connections()).toBe(2);
  });
});
