import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, chmod, stat, lstat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../contract/errors.js';
import { MAX_LINE_BYTES } from '../contract/methods.js';
import { LineDecoder } from './framing.js';
import { LINES_PER_TURN, startSocketServer, type DemoHandler, type SocketServer } from './server.js';

// The server layer is tested with a small handler that echoes what reached it: the real
// host's handler is tested over the same socket in src/host.
const echoHandler: DemoHandler = {
  async handle(method, params, context) {
    if (method === 'demo.apps') return { apps: [{ id: 'a', name: 'A' }] } as never;
    if (method === 'demo.end') throw new ToolError('invalid_token', 'no such token');
    if (method === 'demo.snapshot') {
      const { token } = params as { token: string };
      const delay = token === 'slow' ? 50 : 0;
      await new Promise((r) => setTimeout(r, delay));
      return { capture_state: 'safe', elements: [{ ref: token, role: 'button', label: 'x', ops: ['click'] }] } as never;
    }
    if (method === 'demo.request') {
      return new Promise((_, reject) => context.disconnected.addEventListener('abort', () => reject(new ToolError('consent_denied', 'gone'))));
    }
    throw new Error('boom');
  },
};

let server: SocketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function tempSocket(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cutright-sock-'));
  return path.join(dir, 'run', 'agent-demo.sock');
}

class Peer {
  readonly socket: net.Socket;
  private readonly decoder = new LineDecoder(64 * 1024 * 1024);
  readonly received: Record<string, unknown>[] = [];
  private waiters: (() => void)[] = [];
  readonly closed: Promise<void>;
  constructor(socketPath: string) {
    this.socket = net.connect(socketPath);
    this.socket.on('data', (chunk) => {
      for (const e of this.decoder.push(chunk)) if (e.kind === 'line') this.received.push(JSON.parse(e.line));
      this.waiters.splice(0).forEach((w) => w());
    });
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
    this.socket.on('error', () => {}); // a peer the server closes may get EPIPE on its next write
  }
  send(raw: string) {
    this.socket.write(raw);
  }
  async next(count = 1): Promise<Record<string, unknown>[]> {
    while (this.received.length < count) await new Promise<void>((r) => this.waiters.push(r));
    return this.received.splice(0, count);
  }
}

describe('socket server', () => {
  it('creates a user-only socket in a 0700 folder and removes it on close', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler });
    expect((await stat(socketPath)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(socketPath))).mode & 0o777).toBe(0o700);
    await server.close();
    server = undefined;
    await expect(stat(socketPath)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a group- or world-writable folder', async () => {
    const socketPath = await tempSocket();
    await mkdir(path.dirname(socketPath), { recursive: true });
    await chmod(path.dirname(socketPath), 0o777);
    await expect(startSocketServer({ socketPath, handler: echoHandler })).rejects.toThrow(/world-writable.*chmod 700/);
  });

  it('replaces a stale socket and refuses a live one', async () => {
    const socketPath = await tempSocket();
    await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
    // A host that died leaves its socket file behind with no listener.
    execFileSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.exit(0))`]);
    expect((await lstat(socketPath)).isSocket()).toBe(true);
    server = await startSocketServer({ socketPath, handler: echoHandler });
    await expect(startSocketServer({ socketPath, handler: echoHandler })).rejects.toThrow(/another CutRight host is already listening/);
  });

  it('answers requests, errors and protocol faults with the right codes', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler });
    const peer = new Peer(socketPath);
    peer.send('{"jsonrpc":"2.0","id":1,"method":"demo.apps","params":{}}\n');
    expect((await peer.next())[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { apps: [{ id: 'a', name: 'A' }] } });
    peer.send('not json\n');
    expect((await peer.next())[0]).toMatchObject({ id: null, error: { code: -32700, data: { code: 'invalid_arguments' } } });
    peer.send('[1,2]\n');
    expect((await peer.next())[0]).toMatchObject({ id: null, error: { code: -32600, data: { code: 'invalid_arguments' } } });
    peer.send('{"jsonrpc":"2.0","id":2,"method":"demo.nope"}\n');
    expect((await peer.next())[0]).toMatchObject({ id: 2, error: { code: -32601, data: { code: 'unknown_method' } } });
    peer.send('{"jsonrpc":"2.0","id":"x","method":"demo.act","params":{"token":"t","ref":"r","op":"type"}}\n');
    expect((await peer.next())[0]).toMatchObject({ id: 'x', error: { code: -32602, message: 'params has op "type" but no "text"', data: { code: 'invalid_arguments' } } });
    peer.send('{"jsonrpc":"2.0","id":3,"method":"demo.end","params":{"token":"t"}}\n');
    expect((await peer.next())[0]).toMatchObject({ id: 3, error: { code: -32000, data: { code: 'invalid_token', retryable: false } } });
    peer.send('{"jsonrpc":"2.0","id":4,"method":"demo.batch","params":{"token":"t","steps":[]}}\n');
    expect((await peer.next())[0]).toMatchObject({ id: 4, error: { code: -32602, data: { code: 'invalid_arguments' } } });
    peer.send('{"jsonrpc":"2.0","id":{},"method":"demo.apps"}\n');
    expect((await peer.next())[0]).toMatchObject({ id: null, error: { code: -32600 } });
    peer.send('{"jsonrpc":"1.0","id":5,"method":"demo.apps"}\n');
    expect((await peer.next())[0]).toMatchObject({ id: 5, error: { code: -32600 } });
    peer.socket.destroy();
  });

  it('sends nothing for a notification', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler });
    const peer = new Peer(socketPath);
    peer.send('{"jsonrpc":"2.0","method":"demo.apps","params":{}}\n{"jsonrpc":"2.0","id":9,"method":"demo.apps","params":{}}\n');
    const [answer] = await peer.next();
    expect(answer).toMatchObject({ id: 9 });
    expect(peer.received).toEqual([]);
    peer.socket.destroy();
  });

  it('keeps several requests in flight and answers each by id, in any order', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler });
    const peer = new Peer(socketPath);
    peer.send(
      '{"jsonrpc":"2.0","id":1,"method":"demo.snapshot","params":{"token":"slow"}}\n' +
        '{"jsonrpc":"2.0","id":2,"method":"demo.snapshot","params":{"token":"fast"}}\n',
    );
    const answers = await peer.next(2);
    expect(answers.map((a) => a['id'])).toEqual([2, 1]);
    peer.socket.destroy();
  });

  it('answers an oversize line with invalid_arguments and closes the connection; the host lives on', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler });
    const peer = new Peer(socketPath);
    peer.send('x'.repeat(MAX_LINE_BYTES + 10));
    const [answer] = await peer.next();
    expect(answer).toMatchObject({ id: null, error: { data: { code: 'invalid_arguments' } } });
    await peer.closed;
    const again = new Peer(socketPath);
    again.send('{"jsonrpc":"2.0","id":1,"method":"demo.apps"}\n');
    expect((await again.next())[0]).toMatchObject({ id: 1, result: { apps: [{ id: 'a' }] } });
    again.socket.destroy();
  });

  it('tells the handler when the client disconnects', async () => {
    const socketPath = await tempSocket();
    let sawAbort!: () => void;
    const aborted = new Promise<void>((r) => (sawAbort = r));
    server = await startSocketServer({
      socketPath,
      handler: {
        handle: (_m, _p, context) =>
          new Promise((_, reject) =>
            context.disconnected.addEventListener('abort', () => {
              sawAbort();
              reject(new ToolError('consent_denied', 'client left'));
            }),
          ),
      },
    });
    const peer = new Peer(socketPath);
    peer.send('{"jsonrpc":"2.0","id":1,"method":"demo.request","params":{"app":"a","agent_name":"b"}}\n');
    await new Promise((r) => setTimeout(r, 20));
    peer.socket.destroy();
    await aborted;
  });

  it('maps an unexpected handler failure to a retryable service error without dying', async () => {
    const socketPath = await tempSocket();
    const logged: string[] = [];
    server = await startSocketServer({ socketPath, handler: echoHandler, log: (m) => logged.push(m) });
    const peer = new Peer(socketPath);
    peer.send('{"jsonrpc":"2.0","id":1,"method":"demo.act","params":{"token":"t","ref":"r","op":"click"}}\n');
    expect((await peer.next())[0]).toMatchObject({ id: 1, error: { code: -32000, data: { code: 'service_unavailable', retryable: true } } });
    expect(logged.join('\n')).toMatch(/boom/);
    peer.socket.destroy();
  });
});

describe('socket server turns: a flood on one connection cannot hold up another', () => {
  it("hands the host a connection's lines a few a turn, so another connection's call is taken between them", async () => {
    const socketPath = await tempSocket();
    const reached: string[] = [];
    const otherCall = '{"jsonrpc":"2.0","id":"other","method":"demo.snapshot","params":{"token":"t"}}\n';
    const peers: { other?: Peer } = {};
    let flooding = false;
    const handler: DemoHandler = {
      async handle(method) {
        if (method === 'demo.snapshot') {
          reached.push('other');
          return { capture_state: 'safe', elements: [] } as never;
        }
        reached.push('flood');
        // The other connection's call goes out while the flood is being taken in: the whole
        // flood is in the host's hands already (it fits the socket's buffer).
        if (flooding && reached.length === 1) peers.other!.send(otherCall);
        return { apps: [] } as never;
      },
    };
    server = await startSocketServer({ socketPath, handler });
    const flood = new Peer(socketPath);
    const other = (peers.other = new Peer(socketPath));
    other.send(otherCall); // connected and served once before the flood
    await other.next();
    reached.length = 0;
    flooding = true;
    const count = 1500;
    flood.send(Array.from({ length: count }, (_, id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'demo.apps' })).join('\n') + '\n');
    expect((await other.next())[0]).toMatchObject({ id: 'other', result: { capture_state: 'safe' } });
    // Every flood line is still answered, in order.
    expect((await flood.next(count)).map((answer) => answer['id'])).toEqual(Array.from({ length: count }, (_, id) => id));
    // Taken within a few turns of the flood, not after all of it (1,500 before it, without turns).
    expect(reached.indexOf('other')).toBeGreaterThan(0);
    expect(reached.indexOf('other')).toBeLessThanOrEqual(4 * LINES_PER_TURN);
    flood.socket.destroy();
    other.socket.destroy();
  });
});

describe('socket server limits: what a connection can make the host hold', () => {
  const silent = () => {};
  const closedWithin = (peer: Peer, ms: number) =>
    Promise.race([peer.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  it('closes a connection whose line is not finished in time, answering why', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler, limits: { partialLineTimeoutMs: 200 } });
    const peer = new Peer(socketPath);
    peer.send('{"jsonrpc":"2.0","id":1,"method":"demo.apps"}\n{"jsonrpc":"2.0","id":2,');
    expect((await peer.next())[0]).toMatchObject({ id: 1, result: {} });
    const [answer] = await peer.next();
    expect(answer).toMatchObject({ id: null, error: { code: -32600, message: 'a line was not finished within 200 ms of its first byte; closing the connection' } });
    expect(await closedWithin(peer, 2000)).toBe(true);
  });

  it('disconnects a client that leaves its answers unread past the limit; others are served', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler, limits: { maxUnreadAnswerBytes: 64 * 1024 }, log: silent });
    const reader = new Peer(socketPath);
    const deaf = new Peer(socketPath);
    deaf.socket.pause(); // never reads
    // 8 MB of answers to 30,000 small bad lines: far more than the socket's buffers and the limit.
    const line = '{"jsonrpc":"2.0","id":1,"method":"demo.nope-' + 'x'.repeat(200) + '"}\n';
    for (let i = 0; i < 30; i += 1) deaf.send(line.repeat(1000));
    expect(await closedWithin(deaf, 10_000)).toBe(true);
    reader.send('{"jsonrpc":"2.0","id":7,"method":"demo.apps"}\n');
    expect((await reader.next())[0]).toMatchObject({ id: 7 });
    reader.socket.destroy();
  });

  it('repeats at most a short prefix of the input in an error', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler });
    const peer = new Peer(socketPath);
    const method = 'demo.' + '\u0001'.repeat(100_000);
    peer.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method }) + '\n');
    peer.send('x'.repeat(500_000) + '\n');
    const [unknown, notJson] = await peer.next(2);
    const message = (unknown!['error'] as { message: string }).message;
    expect(message.length).toBeLessThan(200);
    expect(message).toMatch(/^unknown method "demo\.[\\u0-9]+… \(\d+ characters\)$/);
    expect((notJson!['error'] as { message: string }).message.length).toBeLessThan(300);
    peer.socket.destroy();
  });

  it('refuses connections past the limit with service_unavailable, and takes one again when one closes', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler, limits: { maxConnections: 3 } });
    const peers = [new Peer(socketPath), new Peer(socketPath), new Peer(socketPath)];
    for (const [i, peer] of peers.entries()) {
      peer.send(`{"jsonrpc":"2.0","id":${i},"method":"demo.apps"}\n`);
      await peer.next();
    }
    const extra = new Peer(socketPath);
    expect((await extra.next())[0]).toMatchObject({ id: null, error: { data: { code: 'service_unavailable', retryable: true }, message: expect.stringMatching(/3 connections open, its limit/) } });
    await extra.closed;
    peers[0]!.socket.destroy();
    await peers[0]!.closed;
    await new Promise((r) => setTimeout(r, 50));
    const again = new Peer(socketPath);
    again.send('{"jsonrpc":"2.0","id":9,"method":"demo.apps"}\n');
    expect((await again.next())[0]).toMatchObject({ id: 9, result: {} });
    for (const peer of [...peers, again]) peer.socket.destroy();
  });

  it('counts unfinished lines in bytes across connections: the one past the budget is closed, the others go on', async () => {
    const socketPath = await tempSocket();
    server = await startSocketServer({ socketPath, handler: echoHandler, limits: { maxPendingBytesTotal: 300 * 1024 } });
    const a = new Peer(socketPath);
    const b = new Peer(socketPath);
    const c = new Peer(socketPath);
    // Sent a byte at a time, as a slow client would: what is held is the bytes, not the chunks.
    for (const peer of [a, b]) {
      for (let i = 0; i < 2000; i += 1) peer.send('x');
      peer.send('x'.repeat(100 * 1024 - 2000));
      await new Promise((r) => setTimeout(r, 50));
    }
    c.send('x'.repeat(100 * 1024));
    expect((await c.next())[0]).toMatchObject({ error: { data: { code: 'service_unavailable' }, message: expect.stringMatching(/unfinished lines across its connections/) } });
    await c.closed;
    for (const peer of [a, b]) {
      peer.send('\n');
      expect((await peer.next())[0]).toMatchObject({ error: { code: -32700 } });
      peer.socket.destroy();
    }
  });
});
