import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { createCdpDriver } from '../src/targets/cdp-driver.js';
import { PipeBrowser } from '../src/targets/cdp-pipe.test-support.js';
import { attachDebuggerTransport, CDP_PROTOCOL_VERSION } from './debugger-transport.js';
import { WebContentsStandIn } from './stand-ins.test-support.js';

function attached() {
  const contents = new WebContentsStandIn();
  const transport = attachDebuggerTransport(contents as unknown as WebContents);
  return { contents, dbg: contents.debugger, transport };
}

const outcome = (promise: Promise<unknown>) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve('pending'), 20))]);

describe('attachDebuggerTransport', () => {
  it('attaches with CDP 1.3, and refuses a page someone else is debugging', () => {
    const { dbg } = attached();
    expect(CDP_PROTOCOL_VERSION).toBe('1.3');
    expect(dbg.attachedWith).toBe('1.3');
    const busy = new WebContentsStandIn();
    busy.debugger.attach('1.3');
    expect(() => attachDebuggerTransport(busy as unknown as WebContents)).toThrow(/already has a debugger/);
  });

  it('sends commands through sendCommand and passes results and protocol errors back', async () => {
    const { dbg, transport } = attached();
    dbg.handlers.set('Runtime.evaluate', (params) => ({ result: { type: 'number', value: (params['expression'] as string).length } }));
    await expect(transport.send('Runtime.evaluate', { expression: '1+1' })).resolves.toEqual({ result: { type: 'number', value: 3 } });
    await expect(transport.send('Page.enable')).rejects.toThrow(/'Page.enable' wasn't found/);
    expect(dbg.commands).toEqual([
      { method: 'Runtime.evaluate', params: { expression: '1+1' } },
      { method: 'Page.enable', params: {} },
    ]);
  });

  it('delivers events by method, only the page’s own, until disposed', () => {
    const { dbg, transport } = attached();
    const seen: unknown[] = [];
    const other: unknown[] = [];
    const stop = transport.on('Page.loadEventFired', (params) => seen.push(params));
    transport.on('Runtime.consoleAPICalled', (params) => other.push(params));
    dbg.event('Page.loadEventFired', { timestamp: 1 });
    dbg.event('Page.frameNavigated', { frame: {} });
    dbg.event('Page.loadEventFired', { timestamp: 2 }, 'child-session-of-a-worker');
    stop();
    dbg.event('Page.loadEventFired', { timestamp: 3 });
    dbg.event('Runtime.consoleAPICalled', { type: 'log' });
    expect(seen).toEqual([{ timestamp: 1 }]);
    expect(other).toEqual([{ type: 'log' }]);
  });

  it('reports closed when the page is destroyed, and stops listening', async () => {
    const { contents, dbg, transport } = attached();
    contents.destroy();
    await expect(transport.closed).resolves.toBe('closed');
    expect(dbg.listenerCount('message') + dbg.listenerCount('detach') + contents.listenerCount('destroyed') + contents.listenerCount('render-process-gone')).toBe(0);
    await expect(transport.send('Page.enable')).rejects.toThrow(/the target is closed/);
  });

  it('reports crashed when the renderer dies, closed when it exits cleanly', async () => {
    const a = attached();
    a.contents.crash('oom');
    await expect(a.transport.closed).resolves.toBe('crashed');
    const b = attached();
    b.contents.crash('clean-exit');
    await expect(b.transport.closed).resolves.toBe('closed');
  });

  it('reports detached when the debugger goes while the page lives', async () => {
    const { dbg, transport } = attached();
    dbg.lose('canceled_by_user');
    expect(await outcome(transport.closed)).toBe('pending');
    await expect(transport.closed).resolves.toBe('detached');
  });

  it('does not mistake a closing page for a detach when the detach comes first', async () => {
    const { contents, dbg, transport } = attached();
    dbg.lose('target closed');
    setTimeout(() => contents.destroy(), 5);
    await expect(transport.closed).resolves.toBe('closed');
  });
});

describe('flat-mode child sessions (out-of-process iframes)', () => {
  it('sends with the session id, gets only that session’s events, and ends on its detach', async () => {
    const { dbg, transport } = attached();
    const sent: unknown[] = [];
    const sendCommand = dbg.sendCommand.bind(dbg);
    dbg.sendCommand = (method: string, params?: Record<string, unknown>, sessionId?: string) => {
      sent.push([method, sessionId]);
      return sendCommand(method, params);
    };
    dbg.handlers.set('Runtime.evaluate', () => ({ result: { value: 1 } }));
    const child = transport.child!('frame-session');
    const nested = child.child!('nested-session');
    await child.send('Runtime.evaluate', { expression: '1' });
    await nested.send('Runtime.evaluate', { expression: '1' });
    await transport.send('Runtime.evaluate', { expression: '1' });
    expect(sent).toEqual([
      ['Runtime.evaluate', 'frame-session'],
      ['Runtime.evaluate', 'nested-session'],
      ['Runtime.evaluate', undefined],
    ]);

    const childEvents: unknown[] = [];
    const pageEvents: unknown[] = [];
    child.on('Page.loadEventFired', (params) => childEvents.push(params));
    transport.on('Page.loadEventFired', (params) => pageEvents.push(params));
    dbg.event('Page.loadEventFired', { n: 1 }, 'frame-session');
    dbg.event('Page.loadEventFired', { n: 2 });
    dbg.event('Page.loadEventFired', { n: 3 }, 'another-session');
    expect(childEvents).toEqual([{ n: 1 }]);
    expect(pageEvents).toEqual([{ n: 2 }]);

    dbg.event('Target.detachedFromTarget', { sessionId: 'frame-session' });
    await expect(child.closed).resolves.toBe('detached');
    await expect(child.send('Runtime.evaluate')).rejects.toThrow(/frame target is detached/);
    expect(await outcome(nested.closed)).toBe('pending');
    expect(() => transport.child!('')).toThrow(/session id/);
  });

  it('ends every child session with the page', async () => {
    const { contents, transport } = attached();
    const child = transport.child!('frame-session');
    contents.destroy();
    await expect(child.closed).resolves.toBe('closed');
    await expect(transport.child!('late').closed).resolves.toBe('closed');
  });

  it('drives an out-of-process iframe in real Chromium over flat sessions', async () => {
    const serve = async (html: string): Promise<{ server: Server; port: number }> => {
      const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { server, port: (server.address() as AddressInfo).port };
    };
    const frame = await serve(`<button onclick="document.getElementById('out').textContent = 'Clicked'">Frame button</button>
      <label>Frame field <input oninput="document.getElementById('echo').textContent = 'Echo ' + this.value"></label>
      <output id="out"></output><output id="echo"></output>`);
    // localhost is another site than 127.0.0.1: under site isolation the frame is its own target.
    const top = await serve(`<meta name="cutright-capture-state" content="safe"><button>Top</button>
      <iframe src="http://localhost:${frame.port}/"></iframe>`);
    const browser = await PipeBrowser.launch();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${top.port}/`);
      const transport = attachDebuggerTransport(page.contents as unknown as WebContents);
      const driver = await createCdpDriver(transport, {
        allowedOrigins: [`http://127.0.0.1:${top.port}`, `http://localhost:${frame.port}`],
        closeTarget: () => page.close(),
      });
      const { targetInfos } = await transport.send<{ targetInfos: { type: string; url: string }[] }>('Target.getTargets');
      expect(targetInfos.some((info) => info.type === 'iframe' && info.url.includes(`localhost:${frame.port}`))).toBe(true);
      const snapshot = await driver.snapshot();
      expect(snapshot.elements.map((element) => element.label)).toEqual(['Top', 'Frame button', 'Frame field']);
      const button = snapshot.elements[1]!;
      const field = snapshot.elements[2]!;
      await driver.act({ nodeKey: button.nodeKey, op: 'click' }, button);
      await driver.act({ nodeKey: field.nodeKey, op: 'type', text: 'typed' }, field);
      await driver.act({ nodeKey: field.nodeKey, op: 'press', key: 'backspace' }, field);
      // The frame's own page shows the click, the typing and the key press.
      expect((await driver.snapshot()).elements.map((element) => element.label)).toEqual(['Top', 'Frame button', 'Frame field', 'Clicked', 'Echo type']);
      await driver.close();
      expect(await transport.closed).toBe('closed');
    } finally {
      await browser.close();
      frame.server.close();
      top.server.close();
    }
  });
});
