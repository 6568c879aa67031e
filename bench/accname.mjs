// Figure 2b: the share of web-platform-tests' accessible-name expectations that the host's
// snapshot meets, on the elements it lists (the corpus pages through the real host). The
// target is all of them but the exceptions named, with their reasons, in lib/accname-corpus.mjs.
import { EXCEPTIONS, compareCorpus, corpusTable, normalized } from './lib/accname-corpus.mjs';
import { core } from './lib/common.mjs';
import { servePages, startBenchHost } from './lib/harness.mjs';

const { createPlaywrightTransport } = await core('targets/playwright-transport.js');

export async function benchAccname({ browser, log }) {
  const server = await servePages(corpusTable());
  const app = { id: 'bench.wpt-accname', name: 'WPT accname', url: `${server.origin}/`, allowedOrigins: [server.origin] };
  const host = await startBenchHost({ browser, apps: [app], fixtures: false });
  try {
    const session = await host.openSession(app.id);
    const transport = createPlaywrightTransport(await session.page.context().newCDPSession(session.page), session.page);
    const compared = await compareCorpus(host.client, session.token, transport, app.url);
    const matched = compared.filter((c) => c.label === normalized(c.expected)).length;
    const excepted = compared.filter((c) => c.test in EXCEPTIONS).length;
    const share = matched / compared.length;
    log?.(`accname: ${matched} of ${compared.length} listed expectations matched (${excepted} named exceptions)`);
    return {
      matched,
      listed: compared.length,
      excepted,
      rows: [
        {
          figure: '2b WPT accname expectations matched (listed elements)',
          value: `${(share * 100).toFixed(1)} % (${matched} of ${compared.length})`,
          baseline: `${excepted} named exceptions`,
          ratio: share,
          target: `all but the ${Object.keys(EXCEPTIONS).length} named`,
          met: matched + excepted >= compared.length,
        },
      ],
    };
  } finally {
    await host.stop();
    await server.close();
  }
}
