// Figure 4: the kill control. A session runs 100 acts; while the agent keeps acting, the
// kill control's event (host.bridge.kill, what the UI's button calls) fires. Timed from that
// event: the first session_killed answer the agent gets, and the bundle sealed on disk (the
// bridge's kill resolves then; the bundle is then checked to be sealed `killed`).
import { watch } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { median, now, percentile } from './lib/common.mjs';
import { FIXTURE_APP_ID, ToolError, find, startBenchHost } from './lib/harness.mjs';

export async function benchKill({ browser, trials = 8, acts = 100, log }) {
  const host = await startBenchHost({ browser, fixtures: true });
  const refusal = [];
  const refusalInFlight = [];
  const sealed = [];
  const diagnostics = [];
  try {
    for (let trial = 0; trial < trials; trial++) {
      const { session, token } = await host.openSession(FIXTURE_APP_ID);
      const { elements } = await host.client.call('demo.snapshot', { token });
      const subscribe = find(elements, 'checkbox', 'Subscribe');
      const click = () => host.client.call('demo.act', { token, ref: subscribe.ref, op: 'click' });
      for (let i = 0; i < acts; i++) await click();

      // The agent keeps acting; the kill lands while one of its acts is in flight.
      let actsAfter = 0;
      let firstKilledAt;
      let release;
      const killNow = new Promise((resolve) => (release = resolve));
      const agent = (async () => {
        for (;;) {
          try {
            await click();
            actsAfter += 1;
            if (actsAfter === 3) release();
          } catch (error) {
            if (!(error instanceof ToolError) || error.code !== 'session_killed') throw error;
            firstKilledAt = now();
            return;
          }
        }
      })();
      const bundleId = (await host.core.bundles.list()).find((b) => b.sessionId === session)?.bundleId;
      if (!bundleId) throw new Error('the live session has no bundle');
      let sigAt = Infinity;
      const watcher = watch(path.join(host.dataDir, 'bundles', bundleId), (_event, name) => {
        if (name === 'manifest.sig' && sigAt === Infinity) sigAt = now();
      });
      await killNow;
      // Why a slow refusal is slow: the event loop held up (host work, or the process not
      // scheduled on a busy machine), told apart by the CPU time the process used meanwhile.
      const loopDelay = monitorEventLoopDelay({ resolution: 1 });
      loopDelay.enable();
      const cpuBefore = process.cpuUsage();
      const t0 = now();
      const sealing = host.core.host.bridge.kill(session);
      // A call the agent makes at the moment of the kill.
      const fresh = host.client.call('demo.snapshot', { token }).then(
        () => {
          throw new Error('a snapshot after the kill succeeded');
        },
        (error) => {
          if (!(error instanceof ToolError) || error.code !== 'session_killed') throw error;
          return now();
        },
      );
      const freshAt = await fresh;
      loopDelay.disable();
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      await sealing;
      const sealedAt = Math.min(now(), sigAt);
      watcher.close();
      await agent;
      refusal.push(Math.min(freshAt, firstKilledAt ?? Infinity) - t0);
      refusalInFlight.push(firstKilledAt - t0);
      sealed.push(sealedAt - t0);
      const bundle = (await host.core.bundles.list()).find((b) => b.sessionId === session);
      if (bundle?.state !== 'killed') throw new Error(`the killed session's bundle is ${bundle?.state ?? 'missing'}, not sealed killed`);
      diagnostics.push({ loopDelayMaxMs: loopDelay.max / 1e6, cpuMs });
      log?.(
        `kill trial ${trial + 1}/${trials}: refusal ${refusal.at(-1).toFixed(2)} ms (in-flight act answered after ${refusalInFlight.at(-1).toFixed(2)} ms; ` +
          `until then the loop's longest delay ${(loopDelay.max / 1e6).toFixed(1)} ms, CPU used ${cpuMs.toFixed(1)} ms), sealed ${sealed.at(-1).toFixed(1)} ms`,
      );
    }
  } finally {
    await host.stop();
  }
  const p99Refusal = percentile(refusal, 99);
  const p99Sealed = percentile(sealed, 99);
  return {
    rows: [
      {
        figure: `4 kill → first session_killed (p99 of ${trials})`,
        value: `${p99Refusal.toFixed(2)} ms (p50 ${median(refusal).toFixed(2)})`,
        baseline: '-',
        ratio: null,
        target: '< 5 ms',
        met: p99Refusal < 5,
      },
      {
        figure: `4 kill → in-flight act answered (info)`,
        value: `${percentile(refusalInFlight, 99).toFixed(2)} ms (p50 ${median(refusalInFlight).toFixed(2)})`,
        baseline: '-',
        ratio: null,
        target: 'info',
        met: null,
      },
      {
        figure: `4 kill → bundle sealed (p99 of ${trials})`,
        value: `${p99Sealed.toFixed(1)} ms (p50 ${median(sealed).toFixed(1)})`,
        baseline: '-',
        ratio: null,
        target: '< 100 ms',
        met: p99Sealed < 100,
      },
    ],
    detail: { trials, acts, refusal, refusalInFlight, sealed, diagnostics },
  };
}
