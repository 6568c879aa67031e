// Figure 7: the recording (issue: watch and record). Four measurements, each against a
// baseline in the same run:
//  - act p50 and p99 with recording on against recording off, same page, one act at an agent's
//    pace (the host's act path must not wait for frames);
//  - live view latency, from a paint in the target (the screencast frame's paint time) to that
//    frame drawn in the web shell's live view, measured in the browser (the UI page and the
//    target run in the same Chromium, so both times are on one clock);
//  - recording size per minute for a session of 60 acts on the fixture;
//  - the host's CPU while a target sits idle, recording on against off.
/* global window, document -- the callbacks passed to page.evaluate run in the web shell page */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { core, median, now, percentile, rendererDir, sleep, waitFor } from './lib/common.mjs';
import { FIXTURE_APP_ID, find, recordFixtureDemo, startBenchHost } from './lib/harness.mjs';

const { startWebShell } = await core('shell/web/web-shell.js');
const GAP_MS = 100;

async function actTimes(host, token, ref, count) {
  const times = [];
  for (let i = 0; i < 5; i++) await host.client.call('demo.act', { token, ref, op: 'click' });
  for (let i = 0; i < count; i++) {
    await sleep(GAP_MS);
    const started = now();
    await host.client.call('demo.act', { token, ref, op: 'click' });
    times.push(now() - started);
  }
  return times;
}

/** The host process's CPU (user + system, ms) per second of wall time over `ms`, with nothing asked of it. */
async function idleCpu(ms) {
  const before = process.cpuUsage();
  const started = now();
  await sleep(ms);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / ((now() - started) / 1000);
}

async function actsAndIdle({ browser, recording, count }) {
  const host = await startBenchHost({ browser, fixtures: true, recording });
  try {
    const session = await host.openSession(FIXTURE_APP_ID);
    const { elements } = await host.client.call('demo.snapshot', { token: session.token });
    const times = await actTimes(host, session.token, find(elements, 'checkbox', 'Subscribe').ref, count);
    await sleep(500); // the last act's repaint and picture settle
    const cpu = await idleCpu(3000);
    await host.client.call('demo.end', { token: session.token });
    return { times, cpu };
  } finally {
    await host.stop();
  }
}

async function recordingSize({ browser, acts = 60 }) {
  const host = await startBenchHost({ browser, fixtures: true });
  try {
    // An act every GAP_MS: a page that changes at an agent's fast pace.
    const recorded = await recordFixtureDemo(host, { acts, paceMs: GAP_MS, text: (i) => `${i % 10}` });
    const { seconds } = recorded;
    const dir = path.join(recorded.dir, 'recording');
    let bytes = 0;
    let frames = 0;
    for (const file of await readdir(dir)) {
      bytes += (await stat(path.join(dir, file))).size;
      if (file.endsWith('.jpg')) frames += 1;
    }
    return { bytes, frames, seconds, acts };
  } finally {
    await host.stop();
  }
}

const DRAWN = `(() => {
  window.__drawn = [];
  new MutationObserver((records) => {
    for (const record of records) {
      const canvas = record.target;
      const at = Number(canvas.dataset.frameAt);
      // The next animation frame after the draw is the one that shows it.
      requestAnimationFrame(() => window.__drawn.push({ seq: Number(canvas.dataset.frameSeq), paintedAt: at, shownAt: performance.timeOrigin + performance.now() }));
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-frame-seq'] });
})();`;

async function liveLatency({ browser, uiBrowser, paints = 40 }) {
  const host = await startBenchHost({ browser, fixtures: true });
  const shell = await startWebShell({ host: host.core.host, bundles: host.core.bundles, rendererDir });
  host.core.host.setOwnOrigins([shell.origin]);
  const context = await uiBrowser.newContext();
  try {
    const ui = await context.newPage();
    await ui.addInitScript(DRAWN);
    await ui.goto(shell.url);
    const session = await host.openSession(FIXTURE_APP_ID);
    await waitFor(async () => ((await ui.evaluate(() => window.__drawn.length)) > 0 ? true : undefined), 'the first live frame', 20_000, 20);
    for (let i = 0; i < paints; i++) {
      await session.page.evaluate((n) => {
        document.getElementById('greeting').textContent = `paint ${n}`;
      }, i);
      await sleep(150);
    }
    await sleep(500);
    const drawn = await ui.evaluate(() => window.__drawn);
    await host.client.call('demo.end', { token: session.token });
    // The first frames are the page's load; count the paints asked for.
    return drawn.slice(1).map((d) => d.shownAt - d.paintedAt);
  } finally {
    await context.close();
    await shell.close();
    await host.stop();
  }
}

export async function benchRecording({ browser, uiBrowser, count = 40, log }) {
  const off = await actsAndIdle({ browser, recording: false, count });
  const on = await actsAndIdle({ browser, recording: true, count });
  const size = await recordingSize({ browser });
  const latency = await liveLatency({ browser, uiBrowser });
  const p = (values, q) => percentile(values, q);
  const perMinute = (size.bytes / size.seconds) * 60;
  log?.(`recording: act p50 on ${median(on.times).toFixed(2)} off ${median(off.times).toFixed(2)} ms; live ${latency.length} frames p50 ${median(latency).toFixed(1)} ms; ${size.frames} frames ${size.bytes} B in ${size.seconds.toFixed(1)} s; idle CPU on ${on.cpu.toFixed(2)} off ${off.cpu.toFixed(2)} ms/s`);
  const rows = [
    {
      figure: '7 act p50, recording on vs off',
      value: `${median(on.times).toFixed(2)} ms`,
      baseline: `off ${median(off.times).toFixed(2)} ms`,
      ratio: median(on.times) / median(off.times),
      target: '≤ 1.2',
      met: median(on.times) / median(off.times) <= 1.2,
    },
    {
      figure: '7 act p99, recording on vs off',
      value: `${p(on.times, 99).toFixed(2)} ms`,
      baseline: `off ${p(off.times, 99).toFixed(2)} ms`,
      ratio: p(on.times, 99) / p(off.times, 99),
      target: '≤ 1.2',
      met: p(on.times, 99) / p(off.times, 99) <= 1.2,
    },
    {
      figure: `7 live view: paint → shown p50 (${latency.length} frames)`,
      value: `${median(latency).toFixed(1)} ms`,
      baseline: '-',
      ratio: null,
      target: '< 150 ms',
      met: median(latency) < 150,
    },
    {
      figure: `7 live view: paint → shown p99`,
      value: `${p(latency, 99).toFixed(1)} ms`,
      baseline: '-',
      ratio: null,
      target: '< 400 ms',
      met: p(latency, 99) < 400,
    },
    {
      figure: `7 recording size, ${size.acts} acts (info)`,
      value: `${(perMinute / 1024 / 1024).toFixed(2)} MiB/min`,
      baseline: `${size.frames} frames, ${(size.bytes / 1024).toFixed(0)} KiB in ${size.seconds.toFixed(1)} s`,
      ratio: null,
      target: 'info',
      met: null,
    },
    {
      figure: '7 host CPU, target idle, recording on (info)',
      value: `${on.cpu.toFixed(2)} ms/s`,
      baseline: `off ${off.cpu.toFixed(2)} ms/s`,
      ratio: off.cpu > 0 ? on.cpu / off.cpu : null,
      target: 'near 0',
      met: null,
    },
  ];
  return { rows, detail: { act: { on: on.times, off: off.times }, latency, size, cpu: { on: on.cpu, off: off.cpu } } };
}
