// Figure 5: from demo.request arriving to the consent dialog visible in the web shell,
// measured in the browser. The web shell (the real one, serving the built renderer) is open
// in Chromium; a MutationObserver installed before the page's scripts notes, with the page's
// wall clock (performance.timeOrigin + performance.now()), when a `dialog.consent` is open,
// and the next animation frame after it (the frame that paints it). The request's send time
// is taken in Node on the same kind of clock; the offset between the two clocks is measured
// with round trips into the page (see alignClocks) and taken off.
/* global window -- the callbacks passed to page.evaluate run in the web shell page */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { core, median, percentile, rendererDir, sleep, waitFor, wallNow } from './lib/common.mjs';
import { FIXTURE_APP_ID, ToolError, startBenchHost } from './lib/harness.mjs';

const { startWebShell } = await core('shell/web/web-shell.js');

const OBSERVER = `(() => {
  window.__consentShown = [];
  let shown = false;
  const check = () => {
    const open = document.querySelector('dialog.consent[open]');
    if (open && !shown) {
      shown = true;
      const openAt = performance.timeOrigin + performance.now();
      requestAnimationFrame(() => window.__consentShown.push({ openAt, frameAt: performance.timeOrigin + performance.now() }));
    } else if (!open) shown = false;
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
})();`;

/**
 * Offset of the page's clock from Node's (page − node), from the round trip with the least
 * delay among `samples`; `uncertainty` is half that round trip.
 */
async function alignClocks(page, samples = 30) {
  let best;
  for (let i = 0; i < samples; i++) {
    const sent = wallNow();
    const pageTime = await page.evaluate(() => performance.timeOrigin + performance.now());
    const back = wallNow();
    const rtt = back - sent;
    if (!best || rtt < best.rtt) best = { rtt, offset: pageTime - (sent + back) / 2 };
  }
  return { offset: best.offset, uncertainty: best.rtt / 2 };
}

export async function benchConsent({ browser, uiBrowser, trials = 30, log }) {
  if (!existsSync(path.join(rendererDir, 'index.html'))) throw new Error(`the renderer is not built (${rendererDir}): run npm run build`);
  const host = await startBenchHost({ browser, fixtures: true });
  const shell = await startWebShell({ host: host.core.host, bundles: host.core.bundles, rendererDir });
  host.core.host.setOwnOrigins([shell.origin]);
  const context = await uiBrowser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVER);
    await page.goto(shell.url);
    // The shell is live once its bridge has delivered the first view.
    await page.waitForSelector('main, #root > *', { timeout: 15_000 });
    await sleep(300);
    const clocks = await alignClocks(page);
    const toOpen = [];
    const toFrame = [];
    for (let trial = 0; trial < trials + 2; trial++) {
      const before = await page.evaluate(() => window.__consentShown.length);
      const sentAt = wallNow();
      const request = host.client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: `consent bench ${trial}` });
      const shown = await waitFor(
        () => page.evaluate((n) => (window.__consentShown.length > n ? window.__consentShown[n] : undefined), before),
        'the consent dialog in the web shell',
        10_000,
        2,
      );
      // Deny through the bridge, as the dialog's button does, and wait for the dialog to go.
      const consentId = host.core.host.view().consent?.consentId;
      await host.core.host.bridge.answerConsent(consentId, 'deny');
      await request.then(
        () => {
          throw new Error('a denied request was granted');
        },
        (error) => {
          if (!(error instanceof ToolError) || error.code !== 'consent_denied') throw error;
        },
      );
      await page.waitForSelector('dialog.consent[open]', { state: 'detached', timeout: 10_000 });
      if (trial < 2) continue; // the first dialogs warm the page up
      toOpen.push(shown.openAt - clocks.offset - sentAt);
      toFrame.push(shown.frameAt - clocks.offset - sentAt);
      await sleep(20);
    }
    log?.(`consent: open ${median(toOpen).toFixed(2)} ms, painted frame ${median(toFrame).toFixed(2)} ms (p99 ${percentile(toFrame, 99).toFixed(2)}); clock offset ${clocks.offset.toFixed(3)} ± ${clocks.uncertainty.toFixed(3)} ms`);
    const p50 = median(toFrame);
    const p99 = percentile(toFrame, 99);
    return {
      rows: [
        {
          figure: `5 consent: request → dialog painted (p50 of ${trials})`,
          value: `${p50.toFixed(1)} ms (p99 ${p99.toFixed(1)})`,
          baseline: `dialog open in DOM ${median(toOpen).toFixed(1)} ms`,
          ratio: null,
          target: '< 50 ms',
          met: p50 < 50,
        },
      ],
      detail: { trials, clocks, toOpen, toFrame },
    };
  } finally {
    await context.close();
    await shell.close();
    await host.stop();
  }
}
