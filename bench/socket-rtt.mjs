// Figure 1: demo.apps round trips over the host's socket from a separate client process,
// sequential and over 32 connections, against a bare NDJSON echo server in the same run.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { benchDir, median, removeDir, startChild, tempDir } from './lib/common.mjs';

const run = promisify(execFile);

async function client(socketPath, connections, perConnection, warmup) {
  const { stdout } = await run(process.execPath, [
    path.join(benchDir, 'children', 'rtt-client.mjs'),
    socketPath,
    String(connections),
    String(perConnection),
    String(warmup),
  ]);
  return JSON.parse(stdout);
}

export async function benchSocket({ rounds = 5, sequential = 20_000, concurrentPerConnection = 3_000, log }) {
  const dir = await tempDir('echo');
  const echo = await startChild('echo-server.mjs', [path.join(dir, 'echo.sock')]);
  const host = await startChild('host-server.mjs');
  const results = { echoSeq: [], hostSeq: [], echoConc: [], hostConc: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternating who goes first spreads the machine's drift over both.
      const order = round % 2 === 0 ? ['echo', 'host'] : ['host', 'echo'];
      for (const who of order) {
        const socketPath = who === 'echo' ? echo.ready.socketPath : host.ready.socketPath;
        results[`${who}Seq`].push(await client(socketPath, 1, sequential, 2_000));
      }
      for (const who of order) {
        const socketPath = who === 'echo' ? echo.ready.socketPath : host.ready.socketPath;
        results[`${who}Conc`].push(await client(socketPath, 32, concurrentPerConnection, 300));
      }
      log?.(`socket round ${round + 1}/${rounds}: seq host ${Math.round(results.hostSeq.at(-1).throughput)}/s echo ${Math.round(results.echoSeq.at(-1).throughput)}/s; 32 conns host ${Math.round(results.hostConc.at(-1).throughput)}/s echo ${Math.round(results.echoConc.at(-1).throughput)}/s`);
    }
  } finally {
    await echo.stop();
    await host.stop();
    await removeDir(dir);
  }
  const med = (list, key) => median(list.map((r) => r[key]));
  const seqHost = med(results.hostSeq, 'throughput');
  const seqEcho = med(results.echoSeq, 'throughput');
  const concHost = med(results.hostConc, 'throughput');
  const concEcho = med(results.echoConc, 'throughput');
  const p99Host = med(results.hostSeq, 'p99Ms');
  const p99Echo = med(results.echoSeq, 'p99Ms');
  const p50Host = med(results.hostSeq, 'p50Ms');
  const p50Echo = med(results.echoSeq, 'p50Ms');
  return {
    rows: [
      {
        figure: '1 socket: demo.apps sequential',
        value: `${fmtRate(seqHost)} rt/s`,
        baseline: `echo ${fmtRate(seqEcho)} rt/s`,
        ratio: seqHost / seqEcho,
        target: '≥ 0.7',
        met: seqHost / seqEcho >= 0.7,
      },
      {
        figure: '1 socket: demo.apps 32 connections',
        value: `${fmtRate(concHost)} rt/s`,
        baseline: `echo ${fmtRate(concEcho)} rt/s`,
        ratio: concHost / concEcho,
        target: '≥ 0.7',
        met: concHost / concEcho >= 0.7,
      },
      {
        figure: '1 socket: sequential p99',
        value: `${p99Host.toFixed(3)} ms`,
        baseline: `echo ${p99Echo.toFixed(3)} ms`,
        ratio: p99Host / p99Echo,
        target: '≤ 2',
        met: p99Host / p99Echo <= 2,
      },
    ],
    detail: { rounds, sequential, concurrentPerConnection, p50Host, p50Echo, results },
  };
}

export function fmtRate(n) {
  return Math.round(n).toLocaleString('en-US');
}
