// Figure 2: demo.snapshot on pages of 100, 1,000 and 5,000 labelled controls against
// Playwright's locator('body').ariaSnapshot() on the same page in the same Chromium, cold
// (first call after the page loaded) and warm (after a few untimed calls).
import { core, median, now } from './lib/common.mjs';
import { servePages, startBenchHost } from './lib/harness.mjs';

const { DEFAULT_MAX_ELEMENTS, createCdpDriver } = await core('targets/cdp-driver.js');
const { createPlaywrightTransport } = await core('targets/playwright-transport.js');

/** A page of `count` labelled controls: buttons, links, labelled text fields and checkboxes in turn. */
export function controlsPage(count) {
  const rows = [];
  for (let i = 0; i < count; i++) {
    switch (i % 4) {
      case 0:
        rows.push(`<div class="row"><button type="button">Action ${i}</button></div>`);
        break;
      case 1:
        rows.push(`<div class="row"><a href="#item-${i}">Link ${i}</a></div>`);
        break;
      case 2:
        rows.push(`<div class="row"><label for="f${i}">Field ${i}</label> <input id="f${i}" type="text"></div>`);
        break;
      default:
        rows.push(`<div class="row"><input id="c${i}" type="checkbox"> <label for="c${i}">Option ${i}</label></div>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="cutright-capture-state" content="safe"><title>${count} controls</title>
<style>body{font:14px system-ui,sans-serif;margin:1rem}.row{margin:2px 0}</style></head>
<body><main><h1>${count} controls</h1>
${rows.join('\n')}
</main></body></html>`;
}

async function timed(work) {
  const started = now();
  const value = await work();
  return { ms: now() - started, value };
}

async function reloaded(page) {
  await page.reload({ waitUntil: 'load' });
}

export async function benchSnapshot({ browser, sizes = [100, 1000, 5000], coldTrials = 5, warmTrials, log }) {
  const pages = Object.fromEntries(sizes.map((n) => [`/controls-${n}`, controlsPage(n)]));
  const server = await servePages(pages);
  const apps = sizes.map((n) => ({ id: `bench.controls-${n}`, name: `${n} controls`, url: `${server.origin}/controls-${n}`, allowedOrigins: [server.origin] }));
  const host = await startBenchHost({ browser, apps, fixtures: false });
  const rows = [];
  const detail = { maxElements: DEFAULT_MAX_ELEMENTS, sizes: {} };
  try {
    for (const n of sizes) {
      const session = await host.openSession(`bench.controls-${n}`);
      const { page } = session;
      const hostSnapshot = () => host.client.call('demo.snapshot', { token: session.token });
      const ariaSnapshot = () => page.locator('body').ariaSnapshot();

      // Cold: the first call after a fresh load, each side on its own load.
      const cold = { host: [], aria: [] };
      // Fewer at 5,000: a cold ariaSnapshot there takes seconds.
      for (let t = 0; t < (n > 2000 ? Math.min(3, coldTrials) : coldTrials); t++) {
        await reloaded(page);
        cold.host.push((await timed(hostSnapshot)).ms);
        await reloaded(page);
        cold.aria.push((await timed(ariaSnapshot)).ms);
      }
      // Warm: a few untimed calls, then alternate the two.
      const trials = warmTrials ?? (n <= 100 ? 30 : n <= 1000 ? 15 : 5);
      for (let i = 0; i < 3; i++) {
        await hostSnapshot();
        await ariaSnapshot();
      }
      const warm = { host: [], aria: [] };
      let listed = 0;
      let ariaLines = 0;
      for (let t = 0; t < trials; t++) {
        const h = await timed(hostSnapshot);
        warm.host.push(h.ms);
        listed = h.value.elements.length;
        const a = await timed(ariaSnapshot);
        warm.aria.push(a.ms);
        ariaLines = a.value.split('\n').length;
      }

      // The driver alone with the cap lifted, on the same page: what listing every control costs.
      let uncapped;
      if (n > DEFAULT_MAX_ELEMENTS) {
        const cdp = await page.context().newCDPSession(page);
        const driver = await createCdpDriver(createPlaywrightTransport(cdp, page), {
          allowedOrigins: [server.origin],
          maxElements: n * 2,
          closeTarget: async () => cdp.detach().catch(() => {}),
        });
        const times = [];
        let count = 0;
        for (let t = 0; t < 3 + trials; t++) {
          const r = await timed(() => driver.snapshot());
          if (t >= 3) times.push(r.ms);
          count = r.value.elements.length;
        }
        await driver.close();
        uncapped = { ms: median(times), listed: count };
      }
      await host.client.call('demo.end', { token: session.token });

      const m = {
        coldHost: median(cold.host),
        coldAria: median(cold.aria),
        warmHost: median(warm.host),
        warmAria: median(warm.aria),
        listed,
        ariaLines,
        uncapped,
      };
      detail.sizes[n] = { ...m, cold, warm };
      log?.(`snapshot ${n}: warm host ${m.warmHost.toFixed(1)} ms (${listed} listed) aria ${m.warmAria.toFixed(1)} ms; cold host ${m.coldHost.toFixed(1)} aria ${m.coldAria.toFixed(1)}${uncapped ? `; uncapped driver ${uncapped.ms.toFixed(1)} ms (${uncapped.listed})` : ''}`);
      const note = listed < n ? ` (lists ${listed} of ${n}: cap ${DEFAULT_MAX_ELEMENTS})` : '';
      rows.push(
        {
          figure: `2 snapshot ${n.toLocaleString('en-US')} controls, warm`,
          value: `${m.warmHost.toFixed(1)} ms${note}`,
          baseline: `ariaSnapshot ${m.warmAria.toFixed(1)} ms`,
          ratio: m.warmHost / m.warmAria,
          target: '≤ 1',
          met: m.warmHost <= m.warmAria,
        },
        {
          figure: `2 snapshot ${n.toLocaleString('en-US')} controls, cold`,
          value: `${m.coldHost.toFixed(1)} ms${note}`,
          baseline: `ariaSnapshot ${m.coldAria.toFixed(1)} ms`,
          ratio: m.coldHost / m.coldAria,
          target: '≤ 1',
          met: m.coldHost <= m.coldAria,
        },
      );
      if (uncapped) {
        rows.push({
          figure: `2 snapshot ${n.toLocaleString('en-US')}, driver uncapped (info)`,
          value: `${uncapped.ms.toFixed(1)} ms (${uncapped.listed} listed, no socket)`,
          baseline: `ariaSnapshot ${m.warmAria.toFixed(1)} ms`,
          ratio: uncapped.ms / m.warmAria,
          target: 'info',
          met: null,
        });
      }
    }
  } finally {
    await host.stop();
    await server.close();
  }
  return { rows, detail };
}
