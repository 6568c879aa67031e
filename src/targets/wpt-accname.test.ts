// The accessible-name tests of web-platform-tests (copied unchanged into the shared corpus),
// snapshotted through the real host: each page is served with the capture-state declaration
// added, the host's demo.snapshot lists its elements, and every listed element that carries a
// `data-expectedlabel` must be labelled with it. The few exceptions are named, with why, in
// bench/lib/accname-corpus.mjs (which the benchmark's row shares).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCEPTIONS, compareCorpus, corpusTable, normalized } from '../../bench/lib/accname-corpus.mjs';
import { startHostWithApps, type HostWithApps } from './test-pages/host.test-support.js';
import { servePages, type PageServer } from './test-pages/page-server.test-support.js';

let server: PageServer;
let host: HostWithApps;

beforeAll(async () => {
  server = await servePages(corpusTable());
  host = await startHostWithApps([{ id: 'test.wpt-accname', name: 'WPT accname', url: server.url('/'), allowedOrigins: [server.origin] }]);
});

afterAll(async () => {
  await host?.stop();
  await server?.close();
});

describe('WPT accname corpus through the host', () => {
  it('labels every listed element with an expectation as the expectation says, but for the named exceptions', async () => {
    const { token, target } = await host.openSession('test.wpt-accname');
    const compared = await compareCorpus(host.client, token, target.transport, server.url('/'));
    const failed = compared.filter((c) => c.label !== normalized(c.expected) && !(c.test in EXCEPTIONS));
    expect(failed).toEqual([]);
    // Every exception is still one (a fixed one must leave the list), and each is met on the page.
    const excepted = compared.filter((c) => c.test in EXCEPTIONS);
    expect(excepted.filter((c) => c.label === normalized(c.expected))).toEqual([]);
    expect(new Set(excepted.map((c) => c.test))).toEqual(new Set(Object.keys(EXCEPTIONS)));
    // Most of the corpus's 379 expectations are on elements a snapshot lists.
    expect(compared.length).toBeGreaterThan(200);
  });
});
