import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
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
