// Cross-origin iframes in real Chromium: a top page on origin A (127.0.0.1) holding frames
// from B (localhost: another site, so an out-of-process frame under site isolation), C
// (127.0.0.2: a third site) and B' (127.0.0.1 on B's port: cross-origin but same-site, so the
// frame stays in the page's process). The driver runs over Playwright's CDPSession, as in the
// web shell; the tests check the frames' own pages through Playwright's frames.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCdpDriver } from './cdp-driver.js';
import { CHROMIUM_ARGS, findBrowser } from './chromium-launcher.js';
import { createPlaywrightTransport } from './playwright-transport.js';
import type { CdpTransport, DriverElement, TargetDriver } from './types.js';
import { labels, find, failure } from './driver.test-support.js';

interface Site {
  /** `http://host:port` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

const FORM = `<!doctype html><meta charset="utf-8"><title>Form</title>
<style>body { margin: 0; padding: 12px; font: 14px sans-serif }</style>
<button id="b" type="button">Frame button</button>
<label>Frame field <input id="t"></label>
<output id="out"></output>
<script>
  let clicks = 0;
  const out = document.getElementById('out');
  document.getElementById('b').addEventListener('click', () => { out.textContent = 'Clicked ' + (++clicks); });
  document.getElementById('t').addEventListener('keydown', (e) => { if (e.key === 'Enter') out.textContent = 'Entered ' + e.target.value; });
</script>`;

const LEAF = `<!doctype html><meta charset="utf-8"><title>Leaf</title>
<button id="leaf" type="button" onclick="document.title = 'leaf clicked'">Leaf button</button>`;

const OTHER = `<!doctype html><meta charset="utf-8"><title>Other</title><button type="button">Other button</button>`;

const attr = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

/** Serves /form (with ?child=URL: a nested iframe), /leaf, /other, and /top?frame=URL&style=CSS. */
async function startSite(host: string, name: string): Promise<Site> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    let html: string;
    if (url.pathname === '/form') {
      const child = url.searchParams.get('child');
      html = FORM + (child ? `<iframe id="nested" src="${attr(child)}" style="width:240px;height:60px;border:3px solid"></iframe>` : '');
    } else if (url.pathname === '/leaf') {
      html = LEAF;
    } else if (url.pathname === '/other') {
      html = OTHER;
    } else if (url.pathname === '/top') {
      const frames = url.searchParams
        .getAll('frame')
        .map((src, i) => `<iframe id="f${i}" src="${attr(src)}" style="${url.searchParams.get('style') ?? 'width:420px;height:160px'}"></iframe>`)
        .join('');
      html = `<!doctype html><meta charset="utf-8"><meta name="cutright-capture-state" content="safe"><title>Top ${name}</title>
        <button type="button">Top before</button>${url.searchParams.get('spacer') ? '<div style="height:2500px"></div>' : ''}${frames}
        <label>Top field <input id="top"></label><button type="button">Top after</button>`;
    } else {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let siteA: Site;
let siteB: Site;
let siteC: Site;
/** B's pages under B's listener but the 127.0.0.1 host: cross-origin to A, same site. */
let originBSameSite: string;
/** B's pages as `localhost`: another site than A (127.0.0.1), so out of process. */
let originB: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let transport: CdpTransport;
let driver: TargetDriver | undefined;

beforeAll(async () => {
  siteA = await startSite('127.0.0.1', 'A');
  siteB = await startSite('127.0.0.1', 'B');
  siteC = await startSite('127.0.0.2', 'C');
  originB = `http://localhost:${siteB.port}`;
  originBSameSite = siteB.origin;
  const found = findBrowser();
  if (!found.path) throw new Error(`no browser: tried ${found.tried.join(', ')}`);
  browser = await chromium.launch({ executablePath: found.path, headless: true, args: [...CHROMIUM_ARGS] });
  context = await browser.newContext();
  page = await context.newPage();
  transport = createPlaywrightTransport(await context.newCDPSession(page), page);
});

afterEach(async () => {
  await driver?.close();
  driver = undefined;
  // driver.close() closes the page: start the next test on a fresh one.
  page = await context.newPage();
  transport = createPlaywrightTransport(await context.newCDPSession(page), page);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([siteA?.close(), siteB?.close(), siteC?.close()]);
});

function formUrl(origin: string, child: string): string {
  const url = new URL('/form', origin);
  url.searchParams.set('child', child);
  return url.href;
}

function topUrl(frames: string[], extra: Record<string, string> = {}): string {
  const url = new URL('/top', siteA.origin);
  for (const frame of frames) url.searchParams.append('frame', frame);
  for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, value);
  return url.href;
}

/** Opens `url` with every frame loaded, then a driver allowing `allowed`. */
async function open(url: string, allowed: string[]): Promise<TargetDriver> {
  await page.goto(url, { waitUntil: 'load' });
  driver = await createCdpDriver(transport, { allowedOrigins: allowed });
  return driver;
}

function frameAt(origin: string, path = '/form'): Frame {
  const found = page.frames().find((frame) => frame.url().startsWith(origin + path));
  if (!found) throw new Error(`no frame ${origin}${path} in ${page.frames().map((f) => f.url()).join(', ')}`);
  return found;
}




/** The page's iframe targets (out-of-process frames), by URL. */
async function oopifUrls(): Promise<string[]> {
  const { targetInfos } = await transport.send<{ targetInfos: { type: string; url: string }[] }>('Target.getTargets');
  return targetInfos.filter((info) => info.type === 'iframe').map((info) => info.url);
}

describe('cross-origin iframes', () => {
  it('lists an out-of-process frame’s elements in document order, with keys naming the frame', async () => {
    const own = await open(topUrl([`${originB}/form`]), [siteA.origin, originB]);
    expect((await oopifUrls()).some((url) => url.startsWith(originB))).toBe(true);
    const snapshot = await own.snapshot();
    expect(snapshot.captureState).toBe('safe');
    expect(snapshot.truncated).toBe(false);
    expect(snapshot.elements.map(({ role, label, ops }) => ({ role, label, ops }))).toEqual([
      { role: 'button', label: 'Top before', ops: ['click', 'press'] },
      { role: 'button', label: 'Frame button', ops: ['click', 'press'] },
      { role: 'textbox', label: 'Frame field', ops: ['click', 'type', 'press'] },
      { role: 'textbox', label: 'Top field', ops: ['click', 'type', 'press'] },
      { role: 'button', label: 'Top after', ops: ['click', 'press'] },
    ]);
    // A key names its world, one per frame document: the frame's keys are not the top's.
    const world = (element: DriverElement) => element.nodeKey.split('.')[0];
    expect(world(find(snapshot, 'Frame button'))).toBe(world(find(snapshot, 'Frame field')));
    expect(world(find(snapshot, 'Frame button'))).not.toBe(world(find(snapshot, 'Top before')));
    // Attached once and reused: the keys hold from one snapshot to the next.
    expect((await own.snapshot()).elements.map((e) => e.nodeKey)).toEqual(snapshot.elements.map((e) => e.nodeKey));
  });

  it('clicks, types and presses in an out-of-process frame: the frame’s page shows it', async () => {
    // A border, padding and a page scrolled to reach the frame: the point must map through all.
    const own = await open(topUrl([`${originB}/form`], { spacer: '1', style: 'width:420px;height:160px;border:9px solid;padding:13px 0 0 21px' }), [
      siteA.origin,
      originB,
    ]);
    const frame = frameAt(originB);
    const snapshot = await own.snapshot();
    const button = find(snapshot, 'Frame button');
    const field = find(snapshot, 'Frame field');
    const topField = find(snapshot, 'Top field');

    await own.act({ nodeKey: button.nodeKey, op: 'click' }, button);
    const clicked = await own.act({ nodeKey: button.nodeKey, op: 'click' }, button);
    expect(await frame.evaluate(`document.getElementById('out').textContent`)).toBe('Clicked 2');
    // The frame's box and point, moved into the top page: the point lies in the box, and the
    // box in the iframe's content area on the top page.
    const { box, point } = clicked.geometry!;
    expect(point!.x).toBeGreaterThanOrEqual(box.x);
    expect(point!.x).toBeLessThanOrEqual(box.x + box.width);
    expect(point!.y).toBeGreaterThanOrEqual(box.y);
    expect(point!.y).toBeLessThanOrEqual(box.y + box.height);
    const inner = await frame.evaluate<{ w: number; h: number }>(`(() => { const r = document.querySelector('button').getBoundingClientRect(); return { w: Math.round(r.width), h: Math.round(r.height) }; })()`);
    expect({ w: box.width, h: box.height }).toEqual(inner);
    const iframe = await page.evaluate<{ x: number; y: number; r: number; b: number }>(`(() => { const r = document.querySelector('iframe').getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom }; })()`);
    expect(box.x).toBeGreaterThanOrEqual(Math.floor(iframe.x));
    expect(box.y).toBeGreaterThanOrEqual(Math.floor(iframe.y));
    expect(box.x + box.width).toBeLessThanOrEqual(Math.ceil(iframe.r));
    expect(await page.evaluate('scrollY')).toBeGreaterThan(0);

    // Focus starts on the top page: typing must still land in the frame's field.
    await own.act({ nodeKey: topField.nodeKey, op: 'type', text: 'top' }, topField);
    await own.act({ nodeKey: field.nodeKey, op: 'type', text: 'Ada' }, field);
    await own.act({ nodeKey: field.nodeKey, op: 'type', text: ' L' }, field);
    expect(await frame.evaluate(`document.getElementById('t').value`)).toBe('Ada L');
    expect(await page.evaluate(`document.getElementById('top').value`)).toBe('top');

    await own.act({ nodeKey: topField.nodeKey, op: 'click' }, topField);
    await own.act({ nodeKey: field.nodeKey, op: 'press', key: 'enter' }, field);
    expect(await frame.evaluate(`document.getElementById('out').textContent`)).toBe('Entered Ada L');
    // The outcome is readable in the next snapshot: the frame's live region.
    expect(find(await own.snapshot(), 'Entered Ada L').role).toBe('status');
  });

  it('lists and acts in a cross-origin frame of the page’s own process', async () => {
    const own = await open(topUrl([`${originBSameSite}/form`]), [siteA.origin, originBSameSite]);
    expect(await oopifUrls()).toEqual([]);
    const snapshot = await own.snapshot();
    expect(labels(snapshot)).toEqual(['Top before', 'Frame button', 'Frame field', 'Top field', 'Top after']);
    const button = find(snapshot, 'Frame button');
    const field = find(snapshot, 'Frame field');
    await own.act({ nodeKey: button.nodeKey, op: 'click' }, button);
    await own.act({ nodeKey: field.nodeKey, op: 'type', text: 'same site' }, field);
    const frame = frameAt(originBSameSite);
    expect(await frame.evaluate(`document.getElementById('out').textContent`)).toBe('Clicked 1');
    expect(await frame.evaluate(`document.getElementById('t').value`)).toBe('same site');
  });

  it('reaches a cross-origin frame nested in another', async () => {
    const leafUrl = `${siteC.origin}/leaf`;
    const own = await open(topUrl([formUrl(originB, leafUrl)]), [siteA.origin, originB, siteC.origin]);
    // Both are out of process: C is a target below B's.
    const targets = await oopifUrls();
    expect(targets.some((url) => url.startsWith(originB)) && targets.some((url) => url.startsWith(siteC.origin))).toBe(true);
    const snapshot = await own.snapshot();
    expect(labels(snapshot)).toEqual(['Top before', 'Frame button', 'Frame field', 'Leaf button', 'Top field', 'Top after']);
    const leaf = find(snapshot, 'Leaf button');
    await own.act({ nodeKey: leaf.nodeKey, op: 'click' }, leaf);
    expect(await frameAt(siteC.origin, '/leaf').evaluate('document.title')).toBe('leaf clicked');
  });

  it('leaves out a frame whose origin is not allowed, and what is nested in it', async () => {
    const leafUrl = `${siteC.origin}/leaf`;
    const own = await open(topUrl([formUrl(originB, leafUrl), `${originBSameSite}/other`]), [siteA.origin, siteC.origin]);
    const snapshot = await own.snapshot();
    expect(snapshot.captureState).toBe('safe');
    // C is allowed, but only reachable through B, which is not.
    expect(labels(snapshot)).toEqual(['Top before', 'Top field', 'Top after']);
  });

  it('a frame that navigates away makes its old keys fail with invalid_arguments', async () => {
    const own = await open(topUrl([`${originB}/form`, `${originBSameSite}/form`]), [siteA.origin, originB, originBSameSite]);
    const before = await own.snapshot();
    const [outOfProcess, inProcess] = before.elements.filter((element) => element.label === 'Frame button');
    expect(outOfProcess && inProcess).toBeTruthy();
    await Promise.all([
      frameAt(originB).evaluate(`location.replace('/form?again')`),
      frameAt(originBSameSite).evaluate(`location.replace('/form?again')`),
    ]);
    await expect.poll(() => page.frames().filter((f) => f.url().endsWith('/form?again')).length).toBe(2);
    await Promise.all(page.frames().map((f) => f.waitForLoadState('load')));
    for (const stale of [outOfProcess, inProcess] as DriverElement[]) {
      const error = await failure(own.act({ nodeKey: stale.nodeKey, op: 'click' }, stale));
      expect(error).toMatchObject({ code: 'invalid_arguments', message: expect.stringMatching(/gone or changed; take a new snapshot/) });
    }
    const after = await own.snapshot();
    const fresh = after.elements.filter((element) => element.label === 'Frame button');
    expect(fresh).toHaveLength(2);
    for (const element of fresh) expect([outOfProcess?.nodeKey, inProcess?.nodeKey]).not.toContain(element.nodeKey);
    await own.act({ nodeKey: fresh[0]!.nodeKey, op: 'click' }, fresh[0]!);
  });

  it('refuses a frame element when the top page is not capture-safe, and a removed frame’s keys', async () => {
    const own = await open(topUrl([`${originB}/form`]), [siteA.origin, originB]);
    const button = find(await own.snapshot(), 'Frame button');
    await page.evaluate(`document.querySelector('meta[name=cutright-capture-state]').content = 'unsafe'`);
    expect((await failure(own.act({ nodeKey: button.nodeKey, op: 'click' }, button))).code).toBe('capture_unsafe');
    await page.evaluate(`document.querySelector('meta[name=cutright-capture-state]').content = 'safe';
      document.querySelector('iframe').remove()`);
    expect((await failure(own.act({ nodeKey: button.nodeKey, op: 'click' }, button))).code).toBe('invalid_arguments');
    expect(labels(await own.snapshot())).toEqual(['Top before', 'Top field', 'Top after']);
  });

  it('does not see closed shadow roots, canvas content, image-map areas or sandboxed frames', async () => {
    const own = await open(topUrl([]), [siteA.origin]);
    await page.evaluate(`(() => {
      const host = document.createElement('div');
      document.body.append(host);
      host.attachShadow({ mode: 'closed' }).innerHTML = '<button>In closed shadow</button>';
      document.body.insertAdjacentHTML('beforeend', \`
        <canvas width="100" height="40"><button>Canvas fallback</button></canvas>
        <img usemap="#m" width="50" height="50" alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <map name="m"><area shape="rect" coords="0,0,50,50" href="#area" alt="Area link"></map>
        <iframe sandbox="allow-scripts" srcdoc="<button>Sandboxed</button>"></iframe>\`);
    })()`);
    await expect.poll(() => page.frames().length).toBe(2);
    const snapshot = await own.snapshot();
    expect(snapshot.captureState).toBe('safe');
    expect(labels(snapshot)).toEqual(['Top before', 'Top field', 'Top after']);
  });

  it('cuts at maxElements in document order across frames', async () => {
    await page.goto(topUrl([`${originB}/form`]), { waitUntil: 'load' });
    driver = await createCdpDriver(transport, { allowedOrigins: [siteA.origin, originB], maxElements: 2 });
    const capped = await driver.snapshot();
    expect(labels(capped)).toEqual(['Top before', 'Frame button']);
    expect(capped.truncated).toBe(true);
  });
});
