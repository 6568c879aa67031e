// The CDP driver against the real fixture in a real Chromium: one browser for the file, one
// shared page reloaded before each test (plus short-lived pages where a test closes one).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../contract/errors.js';
import { createCdpDriver } from './cdp-driver.js';
import { createChromiumLauncher } from './chromium-launcher.js';
import { startFixtureServer, type FixtureServer } from './fixture/fixture-server.js';
import type { OpenedTarget, TargetDriver, TargetLauncher } from './types.js';
import { find, failure } from './driver.test-support.js';

let fixture: FixtureServer;
let elsewhere: FixtureServer;
let launcher: TargetLauncher;
let target: OpenedTarget;
let driver: TargetDriver;
let loads = 0;

beforeAll(async () => {
  fixture = await startFixtureServer();
  elsewhere = await startFixtureServer();
  launcher = createChromiumLauncher();
  target = await launcher.open(fixture.url);
  driver = await createCdpDriver(target.transport, { allowedOrigins: [fixture.url] });
});

afterAll(async () => {
  await driver?.close();
  await launcher?.close();
  await fixture?.close();
  await elsewhere?.close();
});

/** Navigates the shared page to `url` (a fresh document each time) and waits for its load. */
async function load(url: string): Promise<void> {
  const loaded = new Promise<void>((resolve) => {
    const off = target.transport.on('Page.loadEventFired', () => {
      off();
      resolve();
    });
  });
  const fresh = new URL(url);
  fresh.searchParams.set('load', String(++loads));
  await target.transport.send('Page.navigate', { url: fresh.href });
  await loaded;
}

/** Runs `expression` in the page's own (main) world. */
async function evaluate<T = unknown>(expression: string): Promise<T> {
  const answer = await target.transport.send<{ result: { value: T }; exceptionDetails?: unknown }>('Runtime.evaluate', {
    expression,
    returnByValue: true,
    awaitPromise: true,
  });
  if (answer.exceptionDetails) throw new Error(`page script failed: ${JSON.stringify(answer.exceptionDetails)}`);
  return answer.result.value;
}



beforeEach(async () => {
  await load(fixture.url);
});

describe('snapshot', () => {
  it('lists the fixture controls with roles, ops and the secure flag, with stable keys', async () => {
    const first = await driver.snapshot();
    expect(first.captureState).toBe('safe');
    expect(first.truncated).toBe(false);
    expect(first.elements.map(({ role, label, ops, secure }) => ({ role, label, ops, secure }))).toEqual([
      { role: 'textbox', label: 'Name', ops: ['click', 'type', 'press'], secure: false },
      { role: 'textbox', label: 'Password', ops: ['click', 'type', 'press'], secure: true },
      { role: 'checkbox', label: 'Subscribe', ops: ['click', 'press'], secure: false },
      { role: 'button', label: 'Submit', ops: ['click', 'press'], secure: false },
      { role: 'link', label: 'Help', ops: ['click', 'press'], secure: false },
      { role: 'button', label: 'Go private', ops: ['click', 'press'], secure: false },
    ]);
    const second = await driver.snapshot();
    expect(second.elements.map((e) => e.nodeKey)).toEqual(first.elements.map((e) => e.nodeKey));
    expect(new Set(first.elements.map((e) => e.nodeKey)).size).toBe(first.elements.length);
    // The agent lives in an isolated world: the page's scripts cannot see it.
    expect(await evaluate('typeof globalThis.__cutrightAgent')).toBe('undefined');
  });

  it('never returns a field value, least of all a secure one', async () => {
    await evaluate(`document.getElementById('password').value = 'hunter2-SECRET';
      document.getElementById('name').value = 'typed-NAME-value';`);
    const json = JSON.stringify(await driver.snapshot());
    expect(json).toContain('Password');
    expect(json).not.toContain('hunter2');
    expect(json).not.toContain('typed-NAME-value');
  });

  it('skips hidden controls and names controls the usual ways', async () => {
    await evaluate(`document.querySelector('main').insertAdjacentHTML('beforeend', \`
      <button style="display:none">Display none</button>
      <button style="visibility:hidden">Visibility hidden</button>
      <div aria-hidden="true"><button>Aria hidden</button></div>
      <button style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero size</button>
      <button aria-label="  Close   dialog ">×</button>
      <span id="lbl">From labelledby</span><input aria-labelledby="lbl">
      <label>Wrapped <textarea>default text</textarea></label>
      <input placeholder="Search here" type="search">
      <a href="#x" title="Titled link"><img alt="" width="16" height="16"></a>
      <div role="switch" tabindex="0" aria-checked="false">Dark mode</div>
      <button disabled>Disabled one</button>
      <select aria-label="Colour"><option>Red secret option</option></select>
      <input autocomplete="cc-number" aria-label="Card">
      <div contenteditable="true" aria-label="Notes">editor content</div>
    \`);`);
    const snapshot = await driver.snapshot();
    expect(snapshot.captureState).toBe('safe');
    const labels = snapshot.elements.map((e) => e.label);
    for (const hidden of ['Display none', 'Visibility hidden', 'Aria hidden', 'Zero size']) expect(labels).not.toContain(hidden);
    const pick = (label: string) => {
      const { role, ops, secure } = find(snapshot, label);
      return { role, ops, secure };
    };
    expect(pick('Close dialog')).toEqual({ role: 'button', ops: ['click', 'press'], secure: false });
    expect(pick('From labelledby').role).toBe('textbox');
    expect(pick('Wrapped')).toEqual({ role: 'textbox', ops: ['click', 'type', 'press'], secure: false });
    expect(pick('Search here').role).toBe('searchbox');
    expect(pick('Titled link').role).toBe('link');
    expect(pick('Dark mode')).toEqual({ role: 'switch', ops: ['click', 'press'], secure: false });
    expect(pick('Disabled one').ops).toEqual([]);
    expect(pick('Colour')).toEqual({ role: 'combobox', ops: ['click', 'press'], secure: false });
    expect(pick('Card').secure).toBe(true);
    expect(pick('Notes')).toEqual({ role: 'textbox', ops: ['click', 'type', 'press'], secure: false });
    const json = JSON.stringify(snapshot);
    expect(json).not.toContain('default text');
    expect(json).not.toContain('Red secret option');
    expect(json).not.toContain('editor content');
  });

  it('walks open shadow roots and same-origin iframes, and clicks inside them', async () => {
    await evaluate(`(() => {
      const host = document.createElement('div');
      document.querySelector('main').prepend(host);
      const root = host.attachShadow({ mode: 'open' });
      root.innerHTML = '<button>In shadow</button><div role="button" tabindex="0" id="fancy"></div>';
      root.getElementById('fancy').attachShadow({ mode: 'open' }).innerHTML = '<b>Fancy</b> <slot></slot>';
      root.getElementById('fancy').textContent = 'slotted text';
      root.querySelector('button').addEventListener('click', () => { window.clicked = (window.clicked || '') + 'shadow;'; });
      const frame = document.createElement('iframe');
      frame.style.cssText = 'width:300px;height:80px;border:7px solid black;padding:5px';
      document.querySelector('main').prepend(frame);
      frame.contentDocument.body.innerHTML = '<label>Framed <input id="f"></label><button>In frame</button>';
      frame.contentDocument.querySelector('button').addEventListener('click', () => { window.clicked = (window.clicked || '') + 'frame;'; });
    })()`);
    const snapshot = await driver.snapshot();
    const shadow = find(snapshot, 'In shadow');
    const framed = find(snapshot, 'In frame');
    expect(find(snapshot, 'Framed').role).toBe('textbox');
    expect(find(snapshot, 'Fancy slotted text').role).toBe('button');
    await driver.act({ nodeKey: shadow.nodeKey, op: 'click' }, shadow);
    await driver.act({ nodeKey: framed.nodeKey, op: 'click' }, framed);
    expect(await evaluate('window.clicked')).toBe('shadow;frame;');
  });

  it('caps a page of 5,000 buttons at maxElements and says it was truncated', async () => {
    await evaluate(`(() => {
      let html = '';
      for (let i = 0; i < 5000; i++) html += '<button>Button ' + i + '</button>';
      document.body.innerHTML = html;
    })()`);
    const capped = await driver.snapshot();
    expect(capped.captureState).toBe('safe');
    expect(capped.elements).toHaveLength(2000);
    expect(capped.truncated).toBe(true);
    expect(capped.elements[1999]?.label).toBe('Button 1999');

    const roomy = await createCdpDriver(target.transport, { allowedOrigins: [fixture.url], maxElements: 5000 });
    // How fast is the benchmark's business (bench/snapshot.mjs), not a unit test's.
    const all = await roomy.snapshot();
    expect(all.elements).toHaveLength(5000);
    expect(all.truncated).toBe(false);
    const exact = await createCdpDriver(target.transport, { allowedOrigins: [fixture.url], maxElements: 4999 });
    expect((await exact.snapshot()).truncated).toBe(true);
  });
});

describe('act', () => {
  it('types into Name and clicks Submit: the page greets', async () => {
    const snapshot = await driver.snapshot();
    const name = find(snapshot, 'Name');
    const submit = find(snapshot, 'Submit');
    const typed = await driver.act({ nodeKey: name.nodeKey, op: 'type', text: 'Ada' }, name);
    expect(typed).toMatchObject({ role: 'textbox', label: 'Name' });
    // Where it clicked to focus the field (the live view draws it): inside the field, in CSS pixels.
    const box = await evaluate<{ left: number; right: number; top: number; bottom: number }>(
      `(() => { const r = document.getElementById('name').getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; })()`,
    );
    expect(typed.point?.x).toBeGreaterThan(box.left);
    expect(typed.point?.x).toBeLessThan(box.right);
    expect(typed.point?.y).toBeGreaterThan(box.top);
    expect(typed.point?.y).toBeLessThan(box.bottom);
    await driver.act({ nodeKey: submit.nodeKey, op: 'click' }, submit);
    expect(await evaluate(`document.getElementById('greeting').textContent`)).toBe('Hello, Ada!');
  });

  it('types at the end of existing text, and presses enter to submit', async () => {
    await evaluate(`document.getElementById('name').value = 'Lovelace'`);
    const name = find(await driver.snapshot(), 'Name');
    await driver.act({ nodeKey: name.nodeKey, op: 'type', text: ', Ada' }, name);
    await driver.act({ nodeKey: name.nodeKey, op: 'press', key: 'enter' }, name);
    expect(await evaluate(`document.getElementById('greeting').textContent`)).toBe('Hello, Lovelace, Ada!');
  });

  it('clicks and presses space on the checkbox, and follows the harmless Help link', async () => {
    const snapshot = await driver.snapshot();
    const subscribe = find(snapshot, 'Subscribe');
    await driver.act({ nodeKey: subscribe.nodeKey, op: 'click' }, subscribe);
    expect(await evaluate(`document.getElementById('subscribe').checked`)).toBe(true);
    await driver.act({ nodeKey: subscribe.nodeKey, op: 'press', key: 'space' }, subscribe);
    expect(await evaluate(`document.getElementById('subscribe').checked`)).toBe(false);
    const help = find(snapshot, 'Help');
    await driver.act({ nodeKey: help.nodeKey, op: 'click' }, help);
    expect(await evaluate('location.hash')).toBe('#help');
    expect((await driver.snapshot()).captureState).toBe('safe');
  });

  it('refuses an unknown key, naming it, before touching the page', async () => {
    const name = find(await driver.snapshot(), 'Name');
    const error = await failure(driver.act({ nodeKey: name.nodeKey, op: 'press', key: 'ctrl+banana' }, name));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('"banana"');
  });

  it('blocks every op on the Password field', async () => {
    const password = find(await driver.snapshot(), 'Password');
    for (const input of [
      { op: 'click' as const },
      { op: 'type' as const, text: 'x' },
      { op: 'press' as const, key: 'a' },
    ]) {
      const error = await failure(driver.act({ nodeKey: password.nodeKey, ...input }, password));
      expect(error.code).toBe('target_blocked');
    }
    expect(await evaluate(`document.getElementById('password').value`)).toBe('');
    expect(await evaluate(`document.activeElement === document.getElementById('password')`)).toBe(false);
  });

  it('refuses a node that is gone, relabelled, covered or disabled', async () => {
    const snapshot = await driver.snapshot();
    const subscribe = find(snapshot, 'Subscribe');
    const submit = find(snapshot, 'Submit');
    const goPrivate = find(snapshot, 'Go private');
    const name = find(snapshot, 'Name');

    await evaluate(`document.getElementById('subscribe').remove()`);
    const gone = await failure(driver.act({ nodeKey: subscribe.nodeKey, op: 'click' }, subscribe));
    expect(gone).toMatchObject({ code: 'invalid_arguments', message: expect.stringMatching(/gone or changed; take a new snapshot/) });

    await evaluate(`document.querySelector('button[type=submit]').textContent = 'Send'`);
    const changed = await failure(driver.act({ nodeKey: submit.nodeKey, op: 'click' }, submit));
    expect(changed).toMatchObject({ code: 'invalid_arguments', message: expect.stringMatching(/gone or changed/) });

    await evaluate(`document.body.insertAdjacentHTML('beforeend',
      '<div id="overlay" style="position:fixed;inset:0;background:rgba(0,0,0,0.3)"></div>')`);
    const covered = await failure(driver.act({ nodeKey: goPrivate.nodeKey, op: 'click' }, goPrivate));
    expect(covered).toMatchObject({ code: 'invalid_arguments', message: expect.stringContaining('covered by <div id="overlay">') });
    expect(await evaluate(`document.querySelector('meta[name=cutright-capture-state]').content`)).toBe('safe');

    await evaluate(`document.getElementById('overlay').remove(); document.getElementById('name').disabled = true`);
    const disabled = await failure(driver.act({ nodeKey: name.nodeKey, op: 'type', text: 'x' }, name));
    expect(disabled).toMatchObject({ code: 'invalid_arguments', message: expect.stringContaining('disabled') });

    const unknown = await failure(driver.act({ nodeKey: 'made-up.1', op: 'click' }, goPrivate));
    expect(unknown.code).toBe('invalid_arguments');
  });

  it('scrolls an element below the fold into view before clicking it', async () => {
    await evaluate(`document.querySelector('main').insertAdjacentHTML('afterbegin', '<div style="height:3000px"></div>')`);
    const goPrivate = find(await driver.snapshot(), 'Go private');
    expect(await evaluate('scrollY')).toBe(0);
    await driver.act({ nodeKey: goPrivate.nodeKey, op: 'click' }, goPrivate);
    expect(await evaluate('scrollY')).toBeGreaterThan(0);
    expect((await driver.captureState()).state).toBe('unsafe');
  });

  it('honours an aborted signal: nothing is sent', async () => {
    const subscribe = find(await driver.snapshot(), 'Subscribe');
    const controller = new AbortController();
    controller.abort(new ToolError('session_killed', 'killed'));
    const error = await failure(driver.act({ nodeKey: subscribe.nodeKey, op: 'click' }, subscribe, controller.signal));
    expect(error.code).toBe('session_killed');
    expect(await evaluate(`document.getElementById('subscribe').checked`)).toBe(false);
  });

  it('keys from a replaced document are gone after navigation', async () => {
    const submit = find(await driver.snapshot(), 'Submit');
    await load(fixture.url);
    const error = await failure(driver.act({ nodeKey: submit.nodeKey, op: 'click' }, submit));
    expect(error.code).toBe('invalid_arguments');
    const again = find(await driver.snapshot(), 'Submit');
    expect(again.nodeKey).not.toBe(submit.nodeKey);
  });
});

describe('capture state', () => {
  it('is safe on the fixture, and a JPEG screenshot is taken', async () => {
    expect(await driver.captureState()).toEqual({ state: 'safe' });
    const shot = await driver.screenshot();
    expect(shot.mime).toBe('image/jpeg');
    expect(shot.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('turns unsafe after Go private: nothing listed, no act, no picture', async () => {
    const snapshot = await driver.snapshot();
    const goPrivate = find(snapshot, 'Go private');
    const name = find(snapshot, 'Name');
    await driver.act({ nodeKey: goPrivate.nodeKey, op: 'click' }, goPrivate);
    expect(await driver.captureState()).toMatchObject({ state: 'unsafe', reason: expect.stringContaining('declares') });
    const after = await driver.snapshot();
    expect(after).toMatchObject({ captureState: 'unsafe', elements: [], truncated: false });
    expect((await failure(driver.act({ nodeKey: name.nodeKey, op: 'type', text: 'x' }, name))).code).toBe('capture_unsafe');
    expect((await failure(driver.screenshot())).code).toBe('capture_unsafe');
    expect(await evaluate(`document.getElementById('name').value`)).toBe('');
  });

  it('is not safe on another origin, even one that declares itself safe', async () => {
    await load(elsewhere.url);
    const state = await driver.captureState();
    expect(state.state).toBe('unsafe');
    expect(state.reason).toContain(new URL(elsewhere.url).origin);
    expect((await driver.snapshot()).elements).toEqual([]);
  });

  it('is unknown when the page declares nothing', async () => {
    await evaluate(`document.querySelector('meta[name=cutright-capture-state]').remove()`);
    expect((await driver.captureState()).state).toBe('unknown');
    expect(await driver.snapshot()).toMatchObject({ captureState: 'unknown', elements: [] });
  });

  it('is unknown when the page does not answer in time', async () => {
    const impatient = await createCdpDriver(target.transport, { allowedOrigins: [fixture.url], captureTimeoutMs: 300 });
    expect((await impatient.captureState()).state).toBe('safe');
    await evaluate(`setTimeout(() => { const end = Date.now() + 1200; while (Date.now() < end); }, 0)`);
    const started = performance.now();
    const state = await impatient.captureState();
    expect(state).toMatchObject({ state: 'unknown', reason: expect.stringContaining('did not answer') });
    expect(performance.now() - started).toBeLessThan(1000);
    await evaluate('1'); // waits out the busy page
  });
});

describe('lifetime', () => {
  it('resolves closed when the page closes, and close() is idempotent', async () => {
    const opened = await launcher.open(fixture.url);
    const own = await createCdpDriver(opened.transport, { allowedOrigins: [fixture.url] });
    expect((await own.captureState()).state).toBe('safe');
    await opened.close();
    expect(await own.closed).toBe('closed');
    expect(await own.captureState()).toMatchObject({ state: 'unknown' });
    expect((await own.snapshot()).elements).toEqual([]);
    await own.close();
    await own.close();

    const second = await launcher.open(fixture.url);
    const closing = await createCdpDriver(second.transport, { allowedOrigins: [fixture.url], closeTarget: () => second.close() });
    await Promise.all([closing.close(), closing.close()]);
    expect(await closing.closed).toBe('closed');
    expect((await failure(closing.screenshot())).message).toMatch(/closed|gone/);
  });

  it('resolves closed with crashed when the renderer crashes', async () => {
    const opened = await launcher.open(fixture.url);
    const own = await createCdpDriver(opened.transport, { allowedOrigins: [fixture.url] });
    // Page.crash never answers: the renderer is gone before it could.
    opened.transport.send('Page.crash').catch(() => undefined);
    expect(await own.closed).toBe('crashed');
    expect((await own.captureState()).state).toBe('unknown');
    await opened.close();
  });

  it('refuses bad options with a clear error', async () => {
    await expect(createCdpDriver(target.transport, { allowedOrigins: [] })).rejects.toThrow(/at least one origin/);
    await expect(createCdpDriver(target.transport, { allowedOrigins: ['nope'] })).rejects.toThrow(/"nope" is not a URL/);
    await expect(createCdpDriver(target.transport, { allowedOrigins: [fixture.url], maxElements: 0 })).rejects.toThrow(/maxElements/);
  });
});
