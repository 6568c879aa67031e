import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { PermissionMissingError } from '../src/session/machine.js';
import { BrowserWindowStandIn } from './stand-ins.test-support.js';
import { openRenderPage, RENDER_ORIGIN } from '../src/export/render-page.js';
import { TARGET_PRIORITY } from '../src/targets/cpu-priority.js';
import { createElectronTargetLauncher, type TargetWindow } from './target-launcher.js';
import { TARGET_PARTITION_PREFIX } from './window-options.js';

function launcherWith(options: { missing?: string | null; loadError?: Error; rendererPid?: number } = {}) {
  const windows: BrowserWindowStandIn[] = [];
  const launcher = createElectronTargetLauncher({
    createWindow: (windowOptions) => {
      const window = new BrowserWindowStandIn(windowOptions);
      if (options.loadError) window.loadError = options.loadError;
      if (options.rendererPid) window.webContents.osProcessId = options.rendererPid;
      windows.push(window);
      return window as unknown as TargetWindow;
    },
    missingPermission: () => options.missing ?? null,
  });
  return { launcher, windows };
}

describe('the Electron target launcher', () => {
  it('opens each target in a locked-down window of its own session, driven through its debugger', async () => {
    const { launcher, windows } = launcherWith();
    const target = await launcher.open('https://example.com/app');
    expect(windows).toHaveLength(1);
    const window = windows[0]!;
    const prefs = window.options.webPreferences!;
    expect(prefs.preload).toBeUndefined();
    expect(prefs.partition?.startsWith(TARGET_PARTITION_PREFIX)).toBe(true);
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, devTools: false });
    expect(window.options.title).toBe('CutRight demo: example.com');
    expect(window.loaded).toEqual(['https://example.com/app']);
    // The page's permission requests are denied, like the host's.
    expect(window.webContents.session.request('media')).toBe(false);
    expect(window.webContents.session.request('display-capture')).toBe(false);
    // Driven through the debugger.
    expect(window.webContents.debugger.attachedWith).toBe('1.3');
    window.webContents.debugger.handlers.set('Page.navigate', () => ({ frameId: 'f1' }));
    await expect(target.transport.send('Page.navigate', { url: 'https://example.com/2' })).resolves.toEqual({ frameId: 'f1' });
    expect(launcher.isTarget(window.webContents)).toBe(true);
  });

  it('shows a session\'s target, and keeps the one "Check this app" opens hidden', async () => {
    const { launcher, windows } = launcherWith();
    await launcher.open('https://example.com/');
    await launcher.open('https://example.com/', { hidden: true });
    expect(windows.map((w) => w.options.show)).toEqual([true, false]);
  });

  it("puts the target's renderer below the host's CPU priority, and the renderer a navigation moves it to", async () => {
    // Real processes stand in for the renderers: what is checked is their priority as the OS has it.
    const renderers = [spawn('sleep', ['30']), spawn('sleep', ['30'])];
    try {
      const ours = os.getPriority();
      const { launcher, windows } = launcherWith({ rendererPid: renderers[0]!.pid! });
      await launcher.open('https://example.com/app');
      await vi.waitFor(() => expect(os.getPriority(renderers[0]!.pid!)).toBe(TARGET_PRIORITY));
      expect(os.getPriority(renderers[1]!.pid!)).toBe(ours);
      windows[0]!.webContents.osProcessId = renderers[1]!.pid!;
      windows[0]!.webContents.emit('did-navigate', {}, 'https://other.example/');
      await vi.waitFor(() => expect(os.getPriority(renderers[1]!.pid!)).toBe(TARGET_PRIORITY));
      expect(os.getPriority()).toBe(ours);
      await launcher.close();
    } finally {
      for (const renderer of renderers) renderer.kill('SIGKILL');
    }
  });

  it('gives every target a different session', async () => {
    const { launcher, windows } = launcherWith();
    await launcher.open('https://example.com/');
    await launcher.open('https://example.com/');
    const partitions = windows.map((w) => w.options.webPreferences?.partition);
    expect(new Set(partitions).size).toBe(2);
  });

  it('refuses what is not a web page, before making a window', async () => {
    const { launcher, windows } = launcherWith();
    await expect(launcher.open('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(launcher.open('cutright://app/index.html')).rejects.toThrow(/only http and https/);
    await expect(launcher.open('example.com')).rejects.toThrow(/"example.com" is not a URL/);
    expect(windows).toHaveLength(0);
  });

  it('answers a missing OS permission with PermissionMissingError, before making a window', async () => {
    const message = 'CutRight is missing the macOS permission Accessibility (...)';
    const { launcher, windows } = launcherWith({ missing: message });
    const error = await launcher.open('https://example.com/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionMissingError);
    expect((error as Error).message).toBe(message);
    expect(windows).toHaveLength(0);
  });

  it('closes the window when the page cannot load', async () => {
    const { launcher, windows } = launcherWith({ loadError: new Error('ERR_CONNECTION_REFUSED (-102) loading https://127.0.0.1:1/') });
    await expect(launcher.open('https://127.0.0.1:1/')).rejects.toThrow(/could not open https:\/\/127.0.0.1:1\/ in a window: ERR_CONNECTION_REFUSED/);
    expect(windows[0]!.isDestroyed()).toBe(true);
    expect(launcher.isTarget(windows[0]!.webContents)).toBe(false);
  });

  it('closes a target by detaching and destroying its window (no beforeunload can keep it)', async () => {
    const { launcher, windows } = launcherWith();
    const target = await launcher.open('https://example.com/');
    const window = windows[0]!;
    await target.close();
    await target.close();
    expect(window.isDestroyed()).toBe(true);
    expect(window.webContents.debugger.isAttached()).toBe(false);
    await expect(target.transport.closed).resolves.toBe('closed');
    expect(launcher.isTarget(window.webContents)).toBe(false);
  });

  it('reports a target the person closed as closed', async () => {
    const { launcher, windows } = launcherWith();
    const target = await launcher.open('https://example.com/');
    windows[0]!.destroy();
    await expect(target.transport.closed).resolves.toBe('closed');
    expect(launcher.isTarget(windows[0]!.webContents)).toBe(false);
  });

  it('closes every target on close, and opens none after', async () => {
    const { launcher, windows } = launcherWith();
    await launcher.open('https://example.com/a');
    await launcher.open('https://example.com/b');
    await launcher.close();
    expect(windows.every((w) => w.isDestroyed())).toBe(true);
    await expect(launcher.open('https://example.com/c')).rejects.toThrow(/launcher is closed/);
  });

  it('opens the export\'s render page in a hidden, locked-down window of its own, and the render page goes to its own origin over the debugger', async () => {
    const { launcher, windows } = launcherWith();
    const target = await launcher.openRenderTarget();
    const window = windows[0]!;
    expect(window.options.show).toBe(false);
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, backgroundThrottling: false });
    expect(window.options.webPreferences?.partition?.startsWith(TARGET_PARTITION_PREFIX)).toBe(true);
    expect(window.loaded).toEqual(['about:blank']);
    expect(window.webContents.session.request('media')).toBe(false);

    // What src/export/render-page.ts does over that transport: its document answered through Fetch, the renderer installed.
    const cdp = window.webContents.debugger;
    const fulfilled: Record<string, unknown>[] = [];
    for (const method of ['Fetch.enable', 'Page.enable', 'Fetch.failRequest']) cdp.handlers.set(method, () => ({}));
    cdp.handlers.set('Fetch.fulfillRequest', (params) => (fulfilled.push(params), {}));
    cdp.handlers.set('Page.navigate', (params) => {
      setTimeout(() => {
        cdp.event('Fetch.requestPaused', { requestId: 'q1', request: { url: params.url } });
        cdp.event('Fetch.requestPaused', { requestId: 'q2', request: { url: 'https://elsewhere.example/x.js' } });
        cdp.event('Page.loadEventFired', {});
      }, 5);
      return { frameId: 'f' };
    });
    cdp.handlers.set('Runtime.evaluate', () => ({ result: { objectId: 'renderer-1' } }));
    cdp.handlers.set('Runtime.callFunctionOn', (params) => ({ result: { value: params.objectId === 'renderer-1' ? ['vp8'] : [] } }));
    const page = await openRenderPage(() => Promise.resolve(target));
    expect(cdp.commands.find((c) => c.method === 'Page.navigate')?.params).toEqual({ url: `${RENDER_ORIGIN}/` });
    expect(fulfilled).toEqual([expect.objectContaining({ requestId: 'q1', responseCode: 200 })]);
    expect(cdp.commands.find((c) => c.method === 'Fetch.failRequest')?.params).toEqual({ requestId: 'q2', errorReason: 'BlockedByClient' });
    await expect(page.call('supported', ['vp8'], 1280, 720)).resolves.toEqual(['vp8']);
    await page.close();
    expect(window.isDestroyed()).toBe(true);
  });
});
