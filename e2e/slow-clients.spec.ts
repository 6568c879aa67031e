// Slow and hostile clients against a real host process: its resident memory stays within a
// documented bound (docs/protocol.md, "Limits") under the patterns that grew it without end:
// lines sent a byte at a time, hundreds of connections each holding almost a full line, and a
// client that never reads its answers to huge bad requests. Bounded in time and in count.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { expect, startHost, test } from './host-fixture.js';

/** The most the host's RSS may grow over its idle size under these patterns. */
const RSS_GROWTH_BOUND_BYTES = 128 * 1024 * 1024;
const MIB = 1024 * 1024;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

function connect(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('slow clients cannot grow the host past its bound', async ({ shell }) => {
  test.skip(process.platform !== 'linux', 'reads the host process RSS from /proc');
  test.skip(shell === 'electron', "the socket server under test is the shared core's; the web shell's process is the host itself");
  test.setTimeout(120_000);
  const host = await startHost();
  const pid = host.child.pid!;
  const sockets: net.Socket[] = [];
  let peak = 0;
  const sample = () => (peak = Math.max(peak, rssOf(pid)));
  try {
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssOf(pid);

    // 1. Four connections sending a line one byte at a time (for a bounded 4 s).
    const trickle = await Promise.all([0, 1, 2, 3].map(() => connect(host.socket)));
    sockets.push(...trickle);
    const byte = Buffer.from('x');
    const until = Date.now() + 4_000;
    let sent = 0;
    while (Date.now() < until && sent < 512 * 1024) {
      for (const socket of trickle) socket.write(byte);
      sent += 1;
      if (sent % 32 === 0) await tick();
      if (sent % 8192 === 0) sample();
    }
    sample();

    // 2. Three hundred connections each holding just under a full 1 MiB line.
    const almost = Buffer.alloc(MIB - 64, 'y');
    for (let i = 0; i < 300; i += 1) {
      const socket = await connect(host.socket).catch(() => null);
      if (!socket) continue;
      socket.on('error', () => {});
      socket.write(almost);
      sockets.push(socket);
      if (i % 20 === 0) {
        await new Promise((r) => setTimeout(r, 20));
        sample();
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    sample();

    // 3. A client that never reads, sending 1 MiB lines whose method name the answer would repeat.
    const deaf = await connect(host.socket);
    deaf.pause();
    deaf.on('error', () => {});
    sockets.push(deaf);
    const garbage = `{"jsonrpc":"2.0","id":1,"method":"${'\\u0001'.repeat(Math.floor((MIB - 100) / 6))}"}\n`;
    for (let i = 0; i < 40 && !deaf.destroyed; i += 1) {
      deaf.write(garbage);
      await new Promise((r) => setTimeout(r, 10));
      sample();
    }
    await new Promise((r) => setTimeout(r, 500));
    sample();

    const growth = peak - idle;
    console.log(`host RSS: idle ${(idle / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB, growth ${(growth / MIB).toFixed(0)} MiB (bound ${RSS_GROWTH_BOUND_BYTES / MIB} MiB)`);
    expect(growth).toBeLessThan(RSS_GROWTH_BOUND_BYTES);

    // The host still answers a well-behaved client.
    for (const socket of sockets) socket.destroy();
    const client = await connect(host.socket);
    const answer = new Promise<string>((resolve) => client.once('data', (d) => resolve(String(d))));
    client.write('{"jsonrpc":"2.0","id":1,"method":"demo.apps"}\n');
    expect(JSON.parse(await answer)).toMatchObject({ id: 1, result: { apps: expect.any(Array) } });
    client.destroy();
  } finally {
    for (const socket of sockets) socket.destroy();
    expect(await host.stop()).toBe(0);
  }
});
