// watchCaptureState in real Chromium: every change of the page's declaration is heard as it
// happens (the agent's MutationObserver reporting through a CDP binding), not by polling: the
// watches here poll once a minute, so only the observer can report within the test.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCdpDriver } from './cdp-driver.js';
import { createChromiumLauncher } from './chromium-launcher.js';
import { servePages, type PageServer } from './test-pages/page-server.test-support.js';
import type { CaptureStatus, OpenedTarget, TargetDriver, TargetLauncher } from './types.js';

const PAGE = `<!doctype html><meta charset="utf-8"><meta name="cutright-capture-state" content="safe">
<title>Watched</title><button type="button">Hello</button><div id="busy"></div>`;
const BARE = `<!doctype html><meta charset="utf-8"><title>Bare</title><p>No declaration</p>`;

let site: PageServer;
let other: PageServer;
let launcher: TargetLauncher;
let target: OpenedTarget;
let driver: TargetDriver;

beforeAll(async () => {
  site = await servePages({ '/': PAGE, '/bare': BARE });
  other = await servePages({ '/': PAGE }, '127.0.0.2');
  launcher = createChromiumLauncher();
  target = await launcher.open(site.url('/'));
  driver = await createCdpDriver(target.transport, { allowedOrigins: [site.origin], capturePollMs: 60_000 });
});

afterAll(async () => {
  await driver?.close();
  await launcher?.close();
  await site?.close();
  await other?.close();
});

async function load(url: string): Promise<void> {
  const loaded = new Promise<void>((resolve) => {
    const off = target.transport.on('Page.loadEventFired', () => {
      off();
      resolve();
    });
  });
  await target.transport.send('Page.navigate', { url });
  await loaded;
}

/** Runs `expression` in the page's own world. */
async function evaluate(expression: string): Promise<void> {
  const answer = await target.transport.send<{ exceptionDetails?: unknown }>('Runtime.evaluate', { expression, awaitPromise: true });
  if (answer.exceptionDetails) throw new Error(`page script failed: ${JSON.stringify(answer.exceptionDetails)}`);
}

/** A listener that records what it heard and can wait for the next state matching `state`. */
function recorder(watched: TargetDriver = driver) {
  const heard: CaptureStatus[] = [];
  const waiters: Array<{ state: string; resolve: (status: CaptureStatus) => void; from: number }> = [];
  const stop = watched.watchCaptureState((status) => {
    heard.push(status);
    for (const waiter of [...waiters]) {
      if (status.state === waiter.state) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(status);
      }
    }
  });
  return {
    heard,
    stop,
    /** The next state `state` heard after now (or already heard since `from`). */
    next(state: string, from = heard.length, ms = 5000): Promise<CaptureStatus> {
      const already = heard.slice(from).find((status) => status.state === state);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${state} heard within ${ms} ms; heard ${JSON.stringify(heard)}`)), ms);
        waiters.push({ state, from, resolve: (status) => (clearTimeout(timer), resolve(status)) });
      });
    },
  };
}

beforeEach(async () => {
  await load(site.url('/'));
});

describe('watchCaptureState', () => {
  it('hears the current state, then a flip of the meta tag before the flipping script has even answered', async () => {
    const watch = recorder();
    expect(await watch.next('safe')).toEqual({ state: 'safe' });
    const from = watch.heard.length;
    await evaluate(`document.querySelector('meta[name=cutright-capture-state]').content = 'unsafe'`);
    // The observer runs at the end of the flipping script's task, and its report is sent before
    // the script's own answer: the listener has it already.
    expect(watch.heard.slice(from)).toEqual([
      { state: 'unsafe', reason: 'the page declares its capture state "unsafe" (it needs <meta name="cutright-capture-state" content="safe">)' },
    ]);
    await evaluate(`document.querySelector('meta[name=cutright-capture-state]').content = 'safe'`);
    expect(watch.heard.at(-1)).toEqual({ state: 'safe' });
    watch.stop();
  });

  it('hears the declaration removed and added again, and a second unknown value, but nothing else the page does', async () => {
    const watch = recorder();
    await watch.next('safe');
    const from = watch.heard.length;
    await evaluate(`document.getElementById('busy').textContent = 'work'; document.body.append(document.createElement('p'))`);
    await evaluate(`document.querySelector('meta[name=cutright-capture-state]').remove()`);
    await evaluate(`document.head.insertAdjacentHTML('beforeend', '<meta name="cutright-capture-state" content="Safe">')`);
    await evaluate(`document.querySelector('meta[name=cutright-capture-state]').setAttribute('content', 'safe')`);
    expect(watch.heard.slice(from)).toEqual([
      { state: 'unknown', reason: 'the page lacks <meta name="cutright-capture-state" content="safe">' },
      { state: 'unknown', reason: expect.stringContaining('unrecognised capture state "Safe"') },
      { state: 'safe' },
    ]);
    watch.stop();
  });

  it('follows navigation: a page without the declaration, another origin (named), and back', async () => {
    const watch = recorder();
    await watch.next('safe');
    let from = watch.heard.length;
    await load(site.url('/bare'));
    expect((await watch.next('unknown', from)).reason).toMatch(/loading a new document|lacks <meta/);
    await expect.poll(() => watch.heard.at(-1)?.reason).toContain('lacks <meta name="cutright-capture-state" content="safe">');
    from = watch.heard.length;
    await load(other.url('/'));
    const unsafe = await watch.next('unsafe', from);
    expect(unsafe.reason).toContain(`the page is on ${other.origin}, which is not an allowed origin (allowed: ${site.origin})`);
    from = watch.heard.length;
    await load(site.url('/'));
    await watch.next('safe', from);
    // Never the same state twice in a row.
    watch.heard.slice(1).forEach((status, i) => expect(status).not.toEqual(watch.heard[i]));
    watch.stop();
  });

  it('stops telling a listener that stopped, and tells late listeners the current state', async () => {
    const first = recorder();
    await first.next('safe');
    first.stop();
    const second = recorder();
    await second.next('safe');
    const from = second.heard.length;
    await evaluate(`document.querySelector('meta[name=cutright-capture-state]').content = 'unsafe'`);
    await second.next('unsafe', from);
    expect(first.heard).toEqual([{ state: 'safe' }]);
    second.stop();
  });

  it('says unknown once when the target goes away, and nothing after', async () => {
    const opened = await launcher.open(site.url('/'));
    const own = await createCdpDriver(opened.transport, { allowedOrigins: [site.origin], capturePollMs: 60_000 });
    const watch = recorder(own);
    await watch.next('safe');
    const from = watch.heard.length;
    await opened.close();
    expect(await watch.next('unknown', from)).toEqual({ state: 'unknown', reason: 'the target is gone (closed)' });
    const late = recorder(own);
    expect(await late.next('unknown')).toEqual({ state: 'unknown', reason: 'the target is gone (closed)' });
    await own.close();
    expect(watch.heard).toEqual([{ state: 'safe' }, { state: 'unknown', reason: 'the target is gone (closed)' }]);
  });
});
