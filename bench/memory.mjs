// Figure 6: RSS of the host's core (web shell, no target) idle, with 1,000 idle connections,
// and after 1,000 sessions run and ended, against a bare Node socket server in the same run.
// Both run in child processes started with --expose-gc; each sample is taken after two full
// collections, and the median of a few samples is used.
import path from 'node:path';
import { median, rendererDir, sleep, startChild, tempDir, removeDir } from './lib/common.mjs';
import { DemoClient, ToolError, servePages } from './lib/harness.mjs';

const MB = 1024 * 1024;
const CHEAP_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="cutright-capture-state" content="safe"><title>cheap</title></head>
<body><button type="button">Go</button></body></html>`;

async function sample(child, times = 3) {
  const samples = [];
  for (let i = 0; i < times; i++) {
    samples.push(await child.call('memory'));
    await sleep(100);
  }
  return {
    rss: median(samples.map((s) => s.rss)),
    heapUsed: median(samples.map((s) => s.heapUsed)),
    connections: samples.at(-1).connections,
  };
}

async function withIdleConnections(server, socketPath, count) {
  const idle = await startChild('idle-client.mjs', [socketPath, String(count)]);
  try {
    await sleep(500);
    const measured = await sample(server);
    if (measured.connections < count) throw new Error(`only ${measured.connections} of ${count} connections are open`);
    return measured;
  } finally {
    await idle.stop();
  }
}

/** One whole session: request (allowed through the bridge), wait armed, snapshot, one click, end. */
async function runSession(client, n) {
  const { token } = await client.call('demo.request', { app: 'bench.cheap', agent_name: `memory bench ${n}` });
  let elements;
  for (;;) {
    try {
      ({ elements } = await client.call('demo.snapshot', { token }));
      break;
    } catch (error) {
      if (!(error instanceof ToolError) || error.code !== 'not_armed') throw error;
      await sleep(10);
    }
  }
  await client.call('demo.act', { token, ref: elements[0].ref, op: 'click' });
  await client.call('demo.end', { token });
}

/** Runs up to `count` sessions, `concurrency` at a time, until `deadline` (Date.now()); returns how many ran. */
async function runSessions(client, count, concurrency, start, deadline = Infinity) {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count && Date.now() < deadline) {
        const n = start + next++;
        await runSession(client, n);
        done += 1;
      }
    }),
  );
  return done;
}

export async function benchMemory({ connections = 1000, sessions = 1000, warmSessions = 50, concurrency = 3, budgetSeconds = 150, log }) {
  const dir = await tempDir('bare');
  const pages = await servePages({ '/cheap': CHEAP_PAGE });
  const bare = await startChild('bare-server.mjs', [path.join(dir, 'bare.sock')], { execArgv: ['--expose-gc'] });
  const host = await startChild('host-memory.mjs', [`${pages.origin}/cheap`, rendererDir], { execArgv: ['--expose-gc'] });
  try {
    await sleep(1000);
    const bareIdle = await sample(bare);
    const hostIdle = await sample(host);
    const bareConns = await withIdleConnections(bare, bare.ready.socketPath, connections);
    const hostConns = await withIdleConnections(host, host.ready.socketPath, connections);
    await sleep(300);
    const barePer = (bareConns.rss - bareIdle.rss) / connections;
    const hostPer = (hostConns.rss - hostIdle.rss) / connections;
    const barePerHeap = (bareConns.heapUsed - bareIdle.heapUsed) / connections;
    const hostPerHeap = (hostConns.heapUsed - hostIdle.heapUsed) / connections;
    log?.(`memory per idle connection, JS heap only: host ${(hostPerHeap / 1024).toFixed(1)} KB, bare ${(barePerHeap / 1024).toFixed(1)} KB`);
    log?.(`memory idle: host ${(hostIdle.rss / MB).toFixed(1)} MB, bare ${(bareIdle.rss / MB).toFixed(1)} MB; per idle connection host ${(hostPer / 1024).toFixed(1)} KB, bare ${(barePer / 1024).toFixed(1)} KB`);

    await host.call('autoAllow', { on: true });
    const client = await DemoClient.connect(host.ready.socketPath);
    const started = Date.now();
    // On a machine shared with other work, arming (a page in Chromium) can slow a lot: the
    // sessions stop at the time budget, and the figure says how many ran.
    const deadline = started + budgetSeconds * 1000;
    await runSessions(client, warmSessions, concurrency, 0);
    const warm = await sample(host);
    const ran = warmSessions + (await runSessions(client, sessions - warmSessions, concurrency, warmSessions, deadline));
    const seconds = (Date.now() - started) / 1000;
    await client.close();
    await sleep(500);
    const after = await sample(host);
    const growth = after.rss - warm.rss;
    const heapGrowth = after.heapUsed - warm.heapUsed;
    // The documented bound for ended sessions: the token registry remembers up to 4,096 ended
    // sessions at about 0.6 KB each (src/session/registry.ts, measured); nothing else is kept.
    const boundPerSession = 600;
    const bound = (ran - warmSessions) * boundPerSession;
    // Two heap readings after full collections differ by up to a few hundred KB with no work
    // in between (lazily compiled code, caches): the check allows that much on top of the bound.
    const noise = 512 * 1024;
    log?.(`memory after ${ran} sessions (${seconds.toFixed(0)} s): rss ${(after.rss / MB).toFixed(1)} MB (after ${warmSessions}: ${(warm.rss / MB).toFixed(1)} MB), heap ${(after.heapUsed / MB).toFixed(1)} MB (after ${warmSessions}: ${(warm.heapUsed / MB).toFixed(1)} MB)`);
    return {
      rows: [
        {
          figure: '6 memory: host idle RSS (web shell, no target)',
          value: `${(hostIdle.rss / MB).toFixed(1)} MB`,
          baseline: `bare ${(bareIdle.rss / MB).toFixed(1)} MB`,
          ratio: hostIdle.rss / bareIdle.rss,
          target: '< 80 MB',
          met: hostIdle.rss < 80 * MB,
        },
        {
          figure: `6 memory: per idle connection (${connections})`,
          value: `${(hostPer / 1024).toFixed(1)} KB`,
          baseline: `bare ${(barePer / 1024).toFixed(1)} KB`,
          ratio: hostPer / barePer,
          target: '≤ 1.5',
          met: hostPer / barePer <= 1.5,
        },
        {
          figure: `6 memory: per idle connection, JS heap (info)`,
          value: `${(hostPerHeap / 1024).toFixed(1)} KB`,
          baseline: `bare ${(barePerHeap / 1024).toFixed(1)} KB`,
          ratio: hostPerHeap / barePerHeap,
          target: 'info',
          met: null,
        },
        {
          figure: `6 memory: heap growth, sessions ${warmSessions + 1}-${ran}${ran < sessions ? ` (of ${sessions}: time budget)` : ''}`,
          value: `${(heapGrowth / 1024).toFixed(0)} KB (rss ${growth >= 0 ? '+' : ''}${(growth / MB).toFixed(1)} MB)`,
          baseline: `bound ${(bound / 1024).toFixed(0)} KB`,
          ratio: heapGrowth / bound,
          target: '≤ bound + 512 KB noise',
          met: heapGrowth <= bound + noise,
        },
      ],
      detail: { bareIdle, hostIdle, bareConns, hostConns, warm, after, sessions, ran, warmSessions, seconds, boundPerSession },
    };
  } finally {
    await host.stop();
    await bare.stop();
    await pages.close();
    await removeDir(dir);
  }
}
