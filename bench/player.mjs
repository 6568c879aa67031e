// Figure 8: the player (issue: a demo worth sharing). A session of 60 acts over two minutes on
// the fixture, recorded; then in the web shell's page, in real Chromium:
//  - the player's first frame shown after the bundle view opens for that recording (from the
//    click that opens it to the animation frame after the first frame's image is decoded and
//    drawn), against the bundle view without the player in the same run (the same click to the
//    view's steps drawn);
//  - the HTML export of that recording: its size and the time to make it, against the frames'
//    bytes on disk and the recording's duration.
/* global window -- the callbacks passed to page.evaluate run in the web shell page */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { core, median, now, percentile, rendererDir, waitFor } from './lib/common.mjs';
import { recordFixtureDemo, startBenchHost } from './lib/harness.mjs';

const { startWebShell } = await core('shell/web/web-shell.js');
const { exportBundleHtml } = await core('bundle/index.js');

/** Records in the page: the click that opens a bundle, its steps drawn, the player's first frame drawn. */
const PROBE = `(() => {
  window.__open = [];
  const shownAt = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  document.addEventListener('click', (event) => {
    const button = event.target.closest && event.target.closest('button');
    if (!button || !/^Demo Fixture · /.test(button.textContent || '')) return;
    const entry = { clicked: performance.now(), steps: null, frame: null };
    window.__open.push(entry);
    const observer = new MutationObserver(async () => {
      if (entry.steps === null && [...document.querySelectorAll('h3')].some((h) => /^Steps \\(\\d+\\)$/.test(h.textContent))) {
        entry.steps = -1; // taken: the time comes with the next animation frame
        entry.steps = await shownAt();
      }
      const stage = document.querySelector('.player-stage');
      if (entry.frame === null && stage && stage.dataset.frameShown) {
        entry.frame = -1;
        entry.frame = await shownAt();
        observer.disconnect();
      }
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-frame-shown'] });
  }, true);
})();`;

async function frameBytes(dir) {
  let bytes = 0;
  let frames = 0;
  for (const file of await readdir(path.join(dir, 'recording'))) {
    if (!file.endsWith('.jpg')) continue;
    bytes += (await stat(path.join(dir, 'recording', file))).size;
    frames += 1;
  }
  return { bytes, frames };
}

async function openTimes(browser, shell, opens) {
  const context = await browser.newContext();
  try {
    const ui = await context.newPage();
    await ui.addInitScript(PROBE);
    await ui.goto(shell.url);
    const sessions = ui.getByRole('region', { name: 'Sessions' });
    for (let i = 0; i < opens; i++) {
      await sessions.getByRole('button', { name: /^Demo Fixture · / }).click();
      await waitFor(async () => ((await ui.evaluate((n) => window.__open[n]?.frame > 0 && window.__open[n]?.steps > 0, i)) ? true : undefined), 'the player’s first frame', 20_000, 10);
      await ui.getByRole('button', { name: '← All sessions' }).click();
      await sessions.getByRole('button', { name: /^Demo Fixture · / }).waitFor();
    }
    return ui.evaluate(() => window.__open.map((o) => ({ steps: o.steps - o.clicked, frame: o.frame - o.clicked })));
  } finally {
    await context.close();
  }
}

export async function benchPlayer({ browser, uiBrowser, log, acts = 60, paceMs = 2000, opens = 20 }) {
  const host = await startBenchHost({ browser, fixtures: true });
  let shell;
  try {
    log?.(`player: recording ${acts} acts, one every ${paceMs} ms…`);
    const recorded = await recordFixtureDemo(host, { acts, paceMs });
    const dir = path.join(host.core.bundles.bundlesDir, recorded.bundleId);
    const onDisk = await frameBytes(dir);
    shell = await startWebShell({ host: host.core.host, bundles: host.core.bundles, rendererDir });
    host.core.host.setOwnOrigins([shell.origin]);
    const times = await openTimes(uiBrowser, shell, opens);
    const frame = times.map((t) => t.frame);
    const steps = times.map((t) => t.steps);
    const exportStarted = now();
    const html = await exportBundleHtml(dir);
    const exportMs = now() - exportStarted;
    const embedded = (/<script type="application\/json" id="player-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '').match(/data:image\/jpeg;base64,/g)?.length ?? 0;
    const size = Buffer.byteLength(html);
    log?.(`player: first frame p50 ${median(frame).toFixed(1)} ms (steps ${median(steps).toFixed(1)} ms); ${onDisk.frames} frames, ${onDisk.bytes} B on disk; export ${size} B with ${embedded} frames in ${exportMs.toFixed(0)} ms`);
    const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
    const rows = [
      {
        figure: `8 player: bundle view opened → first frame shown p50 (${opens} opens)`,
        value: `${median(frame).toFixed(1)} ms`,
        baseline: `view without the player ${median(steps).toFixed(1)} ms`,
        ratio: median(frame) / median(steps),
        target: '< 300 ms',
        met: median(frame) < 300,
      },
      {
        figure: '8 player: bundle view opened → first frame shown p99',
        value: `${percentile(frame, 99).toFixed(1)} ms`,
        baseline: `view without the player ${percentile(steps, 99).toFixed(1)} ms`,
        ratio: percentile(frame, 99) / percentile(steps, 99),
        target: '< 300 ms',
        met: percentile(frame, 99) < 300,
      },
      {
        figure: `8 HTML export with the player, ${acts} acts in ${recorded.seconds.toFixed(0)} s (info)`,
        value: mib(size),
        baseline: `${onDisk.frames} frames, ${mib(onDisk.bytes)} on disk; ${embedded} inlined`,
        ratio: size / onDisk.bytes,
        target: 'info',
        met: null,
      },
      {
        figure: '8 HTML export time, against the recording’s duration',
        value: `${exportMs.toFixed(0)} ms`,
        baseline: `recording ${recorded.seconds.toFixed(0)} s`,
        ratio: exportMs / 1000 / recorded.seconds,
        target: '< 1 (faster than real time)',
        met: exportMs / 1000 < recorded.seconds,
      },
    ];
    return { rows, detail: { times, onDisk, export: { bytes: size, embedded, ms: exportMs }, seconds: recorded.seconds } };
  } finally {
    await shell?.close();
    await host.stop();
  }
}
