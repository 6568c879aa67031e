// "Check this app" against real pages in real Chromium: the answer is the driver's, as a
// session would get it, and the page is closed again whatever the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCdpDriver } from '../targets/cdp-driver.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import { servePages, type PageServer } from '../targets/test-pages/page-server.test-support.js';
import type { OpenedTarget, OpenOptions, TargetLauncher } from '../targets/types.js';
import type { AppEntry } from '../settings/settings.js';
import { checkApp, type AppCheckDeps } from './app-check.js';

const SAFE = `<!doctype html><meta charset="utf-8"><meta name="cutright-capture-state" content="safe"><title>Safe</title><button>Go</button>`;
const BARE = `<!doctype html><meta charset="utf-8"><title>Bare</title><p>No declaration</p>`;
// Declares itself only once its script ran, a moment after load.
const LATE = `<!doctype html><meta charset="utf-8"><title>Late</title><script>setTimeout(() => {
  const m = document.createElement('meta'); m.name = 'cutright-capture-state'; m.content = 'safe'; document.head.append(m);
}, 300)</script>`;

let site: PageServer;
let chromium: TargetLauncher;
/** Every page the checks opened, and whether it was closed again. */
const opened: Array<{ url: string; options: OpenOptions | undefined; closed: boolean }> = [];

const launcher: TargetLauncher = {
  async open(url, options) {
    const record = { url, options, closed: false };
    opened.push(record);
    const target = await chromium.open(url, options);
    return { transport: target.transport, close: async () => void ((record.closed = true), await target.close()) } satisfies OpenedTarget;
  },
  close: () => chromium.close(),
};

const deps: AppCheckDeps = {
  launcher,
  createDriver: (target, app) => createCdpDriver(target.transport, { allowedOrigins: app.allowedOrigins }),
  isHostItself: (app) => app.url.startsWith('http://127.0.0.1:1/'),
};

function app(path: string, allowedOrigins = [site.origin]): AppEntry {
  return { id: 'com.example.checked', name: 'Checked', url: site.url(path), allowedOrigins };
}

beforeAll(async () => {
  site = await servePages({ '/safe': SAFE, '/bare': BARE, '/late': LATE });
  chromium = createChromiumLauncher();
});

afterAll(async () => {
  await chromium?.close();
  await site?.close();
});

describe('checkApp', () => {
  it('answers safe for a page that declares itself, opened hidden and closed again', async () => {
    const before = opened.length;
    await expect(checkApp(app('/safe'), deps)).resolves.toEqual({ url: site.url('/safe'), state: 'safe', reason: null });
    expect(opened.slice(before)).toEqual([{ url: site.url('/safe'), options: { hidden: true }, closed: true }]);
  });

  it('names the missing declaration of a page that has none', async () => {
    const result = await checkApp(app('/bare'), { ...deps, settleMs: 500 });
    expect(result.state).not.toBe('safe');
    expect(result.reason).toMatch(/cutright-capture-state/);
    expect(opened.at(-1)?.closed).toBe(true);
  });

  it('names the origin that is not allowed', async () => {
    const result = await checkApp(app('/safe', ['http://localhost:1']), { ...deps, settleMs: 500 });
    expect(result.state).not.toBe('safe');
    expect(result.reason).toContain(site.origin);
  });

  it('waits a moment for a page that declares itself once its script ran', async () => {
    await expect(checkApp(app('/late'), deps)).resolves.toMatchObject({ state: 'safe' });
  });

  it('says why a page that does not load could not be checked', async () => {
    const result = await checkApp({ ...app('/safe'), url: 'http://127.0.0.1:9/' }, deps);
    expect(result).toMatchObject({ state: 'unknown', url: 'http://127.0.0.1:9/' });
    expect(result.reason).toMatch(/^Checked could not be opened at http:\/\/127\.0\.0\.1:9\/: /);
  });

  it('never opens the host itself', async () => {
    const before = opened.length;
    const result = await checkApp({ ...app('/safe'), url: 'http://127.0.0.1:1/' }, deps);
    expect(result).toMatchObject({ state: 'unsafe', reason: 'http://127.0.0.1:1/ is CutRight host itself, which is never a target' });
    expect(opened.length).toBe(before);
  });
});
