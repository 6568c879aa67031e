import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { HostView, WebBridgeClientMessage } from '../../../src/ui-protocol/index.js';
import { bridgeSocketUrl, createWebSocketBridge, type WebSocketConstructor } from './websocket-bridge.js';
import type { ConnectionStatus, UiBridge } from './types.js';

const view = (bundlesVersion = 0): HostView => ({ demoMode: true, consent: null, consentQueue: 0, live: [], bundlesVersion, problems: [] });

/** A real WebSocket server on 127.0.0.1 playing the web shell's side of the protocol. */
async function startServer(path = '/s3cret/bridge', port = 0) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port, path });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const calls: WebBridgeClientMessage[] = [];
  const sockets = new Set<WebSocket>();
  let answer: (m: WebBridgeClientMessage, ws: WebSocket) => void = (m, ws) =>
    ws.send(JSON.stringify({ type: 'reply', id: m.id, ok: true, value: null }));
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.send(JSON.stringify({ type: 'view', view: view() }));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as WebBridgeClientMessage;
      calls.push(m);
      answer(m, ws);
    });
  });
  const port_ = (wss.address() as { port: number }).port;
  return {
    wss,
    calls,
    sockets,
    port: port_,
    pageUrl: `http://127.0.0.1:${port_}/s3cret/`,
    onCall(fn: typeof answer) {
      answer = fn;
    },
    broadcast(message: unknown) {
      for (const ws of sockets) ws.send(typeof message === 'string' ? message : JSON.stringify(message));
    },
    close: () => new Promise<void>((resolve) => {
      for (const ws of sockets) ws.terminate();
      wss.close(() => resolve());
    }),
  };
}

const NodeWebSocket = WebSocket as unknown as WebSocketConstructor;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function waitFor<T>(predicate: () => T | undefined | false, what: string, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      const value = predicate();
      if (value) return resolve(value);
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

function track(bridge: UiBridge) {
  const statuses: ConnectionStatus[] = [];
  const views: HostView[] = [];
  cleanups.push(bridge.onConnection((s) => statuses.push(s)));
  cleanups.push(bridge.subscribe((v) => views.push(v)));
  return { statuses, views };
}

describe('bridgeSocketUrl', () => {
  it('is the page directory + bridge on ws:', () => {
    expect(bridgeSocketUrl('http://127.0.0.1:4000/abc/')).toBe('ws://127.0.0.1:4000/abc/bridge');
    expect(bridgeSocketUrl('http://127.0.0.1:4000/abc/index.html?x=1#top')).toBe('ws://127.0.0.1:4000/abc/bridge');
    expect(bridgeSocketUrl('https://host.example/abc/')).toBe('wss://host.example/abc/bridge');
  });
  it('refuses a page that is not http(s)', () => {
    expect(() => bridgeSocketUrl('file:///tmp/x/index.html')).toThrow(/http: or https:, got file:/);
  });
});

describe('createWebSocketBridge against a real ws server', () => {
  it('receives views, and sends calls that resolve by id', async () => {
    const server = await startServer();
    cleanups.push(server.close);
    const bridge = createWebSocketBridge(server.pageUrl, { WebSocket: NodeWebSocket });
    cleanups.push(() => bridge.dispose());
    const { statuses, views } = track(bridge);

    await waitFor(() => views.length === 1, 'the first view');
    expect(statuses).toEqual(['connecting', 'connected']);
    expect(views[0]).toEqual(view());

    // Replies out of order still reach their own call.
    server.onCall((m, ws) => {
      const value = m.call === 'listBundles' ? [] : { demoMode: false, apps: [], deniedApps: ['x'] };
      setTimeout(() => ws.send(JSON.stringify({ type: 'reply', id: m.id, ok: true, value })), m.call === 'listBundles' ? 50 : 0);
    });
    const [list, settings] = await Promise.all([bridge.listBundles(), bridge.getSettings()]);
    expect(list).toEqual([]);
    expect(settings).toEqual({ demoMode: false, apps: [], deniedApps: ['x'] });
    expect(server.calls.map((c) => [c.type, c.call, c.args])).toEqual([
      ['call', 'listBundles', []],
      ['call', 'getSettings', []],
    ]);

    server.broadcast({ type: 'view', view: view(3) });
    await waitFor(() => views.length === 2, 'the second view');
    expect(views[1]!.bundlesVersion).toBe(3);

    // A late subscriber gets the current view at once.
    const late: HostView[] = [];
    cleanups.push(bridge.subscribe((v) => late.push(v)));
    expect(late).toEqual([view(3)]);
  });

  it('sends each call with its arguments and rejects with the host message on ok:false', async () => {
    const server = await startServer();
    cleanups.push(server.close);
    server.onCall((m, ws) => {
      if (m.call === 'kill') ws.send(JSON.stringify({ type: 'reply', id: m.id, ok: false, error: { message: 'no such session: s-9' } }));
      else ws.send(JSON.stringify({ type: 'reply', id: m.id, ok: true, value: null }));
    });
    const bridge = createWebSocketBridge(server.pageUrl, { WebSocket: NodeWebSocket });
    cleanups.push(() => bridge.dispose());
    await bridge.answerConsent('c-1', 'deny');
    await expect(bridge.kill('s-9')).rejects.toThrow('no such session: s-9');
    expect(server.calls.map((c) => [c.call, c.args])).toEqual([
      ['answerConsent', ['c-1', 'deny']],
      ['kill', ['s-9']],
    ]);
  });

  it('rejects a result of the wrong shape, naming the call', async () => {
    const server = await startServer();
    cleanups.push(server.close);
    server.onCall((m, ws) => ws.send(JSON.stringify({ type: 'reply', id: m.id, ok: true, value: 'nope' })));
    const bridge = createWebSocketBridge(server.pageUrl, { WebSocket: NodeWebSocket });
    cleanups.push(() => bridge.dispose());
    await expect(bridge.listBundles()).rejects.toThrow(/listBundles/);
  });

  it('ignores and reports messages it cannot read', async () => {
    const server = await startServer();
    cleanups.push(server.close);
    const errors: string[] = [];
    const bridge = createWebSocketBridge(server.pageUrl, { WebSocket: NodeWebSocket, onProtocolError: (e) => errors.push(e.message) });
    cleanups.push(() => bridge.dispose());
    const { views } = track(bridge);
    await waitFor(() => views.length === 1, 'the first view');
    server.broadcast('not json');
    server.broadcast({ type: 'view', view: { ...view(), live: 'x' } });
    server.broadcast({ type: 'surprise' });
    server.broadcast({ type: 'view', view: view(7) });
    await waitFor(() => views.length === 2, 'the good view');
    expect(views[1]!.bundlesVersion).toBe(7);
    expect(errors).toEqual([
      'Bridge message is not JSON',
      'Invalid bridge message: message.view.live must be Array, got "x"',
      'Invalid bridge message: message.type must be ("view" | "reply"), got "surprise"',
    ]);
  });

  it('rejects pending calls when the socket drops, then reconnects with backoff', async () => {
    const server = await startServer();
    const bridge = createWebSocketBridge(server.pageUrl, { WebSocket: NodeWebSocket, reconnectMinMs: 20, reconnectMaxMs: 80 });
    cleanups.push(() => bridge.dispose());
    const { statuses, views } = track(bridge);
    await waitFor(() => views.length === 1, 'the first view');

    server.onCall(() => {}); // never answers
    const pending = bridge.getBundle('b-1');
    await waitFor(() => server.calls.length === 1, 'the call to arrive');
    const { port } = server;
    await server.close();
    await expect(pending).rejects.toThrow('getBundle: the connection to the host was lost');
    await waitFor(() => statuses.at(-1) === 'disconnected', 'disconnected');

    // While no connection is being made, a call fails at once instead of hanging.
    const callWhileDown = bridge.listBundles().catch((e: Error) => e.message);

    // The host comes back on the same address: the bridge finds it again by itself.
    const again = await startServer('/s3cret/bridge', port);
    cleanups.push(again.close);
    await waitFor(() => views.length === 2, 'a view after reconnecting');
    expect(statuses.at(-1)).toBe('connected');
    expect(statuses.filter((s) => s === 'disconnected').length).toBeGreaterThanOrEqual(1);
    const message = await callWhileDown;
    expect(['listBundles: not connected to the host', 'listBundles: the connection to the host was lost']).toContain(message);
    again.onCall((m, ws) => ws.send(JSON.stringify({ type: 'reply', id: m.id, ok: true, value: [] })));
    await expect(bridge.listBundles()).resolves.toEqual([]);
  });

  it('queues calls made while connecting and sends them once open', async () => {
    const server = await startServer();
    cleanups.push(server.close);
    server.onCall((m, ws) => ws.send(JSON.stringify({ type: 'reply', id: m.id, ok: true, value: [] })));
    const bridge = createWebSocketBridge(server.pageUrl, { WebSocket: NodeWebSocket });
    cleanups.push(() => bridge.dispose());
    await expect(bridge.listBundles()).resolves.toEqual([]);
  });

  it('dispose closes the socket, rejects what is pending and stops reconnecting', async () => {
    const server = await startServer();
    cleanups.push(server.close);
    server.onCall(() => {});
    const bridge = createWebSocketBridge(server.pageUrl, { WebSocket: NodeWebSocket, reconnectMinMs: 10 });
    const { views } = track(bridge);
    await waitFor(() => views.length === 1, 'the first view');
    const pending = bridge.getSettings();
    await waitFor(() => server.calls.length === 1, 'the call');
    bridge.dispose();
    await expect(pending).rejects.toThrow('getSettings: the bridge was closed');
    await waitFor(() => server.sockets.size === 0, 'the server to see the socket close');
    await new Promise((r) => setTimeout(r, 100));
    expect(server.sockets.size).toBe(0);
    await expect(bridge.kill('s')).rejects.toThrow('kill: the bridge is closed');
  });

  it('builds picture URLs relative to the page, encoding each segment', () => {
    const bridge = createWebSocketBridge('http://127.0.0.1:1/sec/', { WebSocket: NodeWebSocket, onProtocolError: () => {} });
    try {
      expect(bridge.pictureUrl('b 1', 'pictures/0001.png')).toBe('http://127.0.0.1:1/sec/bundles/b%201/pictures/0001.png');
      expect(bridge.pictureUrl('b1', '../../etc/passwd')).toBe('http://127.0.0.1:1/sec/bundles/b1/etc/passwd');
    } finally {
      bridge.dispose();
    }
  });
});
