import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { IpcMain, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBundleStore } from '../src/bundle/index.js';
import { BridgeArgumentError } from '../src/ui-protocol/dispatch.js';
import type { HostView } from '../src/ui-protocol/index.js';
import { createHost, type Host } from '../src/host/host.js';
import { SettingsStore } from '../src/settings/settings-store.js';
import { CHANNEL_CALL, CHANNEL_READY, CHANNEL_VIEW, type HostWindowRole } from './ipc-channels.js';
import { checkSender, handleBridgeInvoke, handleReady, IpcSenderError, registerBridgeIpc, sendView, type BridgeIpcOptions } from './ipc.js';
import { createElectronTargetLauncher } from './target-launcher.js';

// A real host over real settings and bundle stores in a temporary folder; no session is ever
// armed here, so its launcher never opens a window.
let dataDir: string;
let host: Host;
let options: BridgeIpcOptions;
const roles = new Map<number, HostWindowRole>([
  [1, 'main'],
  [2, 'consent'],
  [3, 'kill'],
]);
const refused: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-ipc-'));
  host = createHost({
    settings: await SettingsStore.open(dataDir),
    bundles: await openBundleStore({ dataDir }),
    launcher: createElectronTargetLauncher({
      createWindow: () => {
        throw new Error('no target windows in this test');
      },
    }),
    createDriver: () => Promise.reject(new Error('no drivers in this test')),
    answeredBy: 'test',
  });
  options = { bridge: host.bridge, roleOf: (contents) => roles.get(contents.id), currentView: () => host.view(), log: (m) => refused.push(m) };
});

afterAll(async () => {
  await host.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

interface SentMessage {
  channel: string;
  args: unknown[];
}

/** An IPC event as Electron shapes it: the sending webContents and the frame that sent. */
function event(url: string, contentsId = 1, frame: 'top' | 'sub' | 'gone' = 'top') {
  const sent: SentMessage[] = [];
  const sender = { id: contentsId, send: (channel: string, ...args: unknown[]) => void sent.push({ channel, args }) } as unknown as WebContents;
  const senderFrame = frame === 'gone' ? null : ({ url, parent: frame === 'sub' ? {} : null } as unknown as Electron.WebFrameMain);
  return { sender, senderFrame, sent };
}

const APP_PAGE = 'cutright://app/index.html?window=main#main';

describe('checkSender', () => {
  it('accepts the top frame of a host window showing the app page, and says which window it is', () => {
    expect(checkSender(event(APP_PAGE, 1), options.roleOf)).toBe('main');
    expect(checkSender(event('cutright://app/index.html?window=consent#consent', 2), options.roleOf)).toBe('consent');
  });

  it.each([
    ['a remote page', 'https://evil.example/index.html'],
    ['another page of the app origin', 'cutright://app/other.html'],
    ['another host of the app scheme', 'cutright://evil/index.html'],
    ['a file', 'file:///tmp/index.html'],
    ['the app page with credentials', 'cutright://user:pw@app/index.html'],
    ['about:blank', 'about:blank'],
    ['no URL', ''],
  ])('refuses %s', (_what, url) => {
    expect(() => checkSender(event(url), options.roleOf)).toThrow(IpcSenderError);
  });

  it('refuses a subframe, a frame that is gone, and a webContents that is not a host window', () => {
    expect(() => checkSender(event(APP_PAGE, 1, 'sub'), options.roleOf)).toThrow(/subframe/);
    expect(() => checkSender(event(APP_PAGE, 1, 'gone'), options.roleOf)).toThrow(/frame is gone/);
    expect(() => checkSender(event(APP_PAGE, 99), options.roleOf)).toThrow(/not one of CutRight's/);
  });
});

describe('handleBridgeInvoke', () => {
  it('dispatches a call from the main window to the host', async () => {
    const settings = await handleBridgeInvoke(options, event(APP_PAGE), 'getSettings', []);
    expect(settings).toMatchObject({ demoMode: true, apps: [], deniedApps: [] });
    expect(await handleBridgeInvoke(options, event(APP_PAGE), 'listBundles', [])).toEqual([]);
  });

  it('refuses an untrusted frame before anything reaches the host', async () => {
    refused.length = 0;
    await expect(handleBridgeInvoke(options, event('https://evil.example/'), 'saveSettings', [{ demoMode: false, apps: [], deniedApps: [] }])).rejects.toThrow(
      IpcSenderError,
    );
    expect(refused.join('\n')).toMatch(/evil\.example/);
    expect(host.view().demoMode).toBe(true);
  });

  it('lets each small window make only its own call', async () => {
    const consentPage = 'cutright://app/index.html?window=consent#consent';
    const killPage = 'cutright://app/index.html?window=kill#kill';
    await expect(handleBridgeInvoke(options, event(consentPage, 2), 'getSettings', [])).rejects.toThrow(/consent window may not call getSettings/);
    await expect(handleBridgeInvoke(options, event(killPage, 3), 'saveSettings', [{}])).rejects.toThrow(/kill window may not call saveSettings/);
    // Their own calls reach the real host: no such consent is open; killing an unknown session is a no-op.
    await expect(handleBridgeInvoke(options, event(consentPage, 2), 'answerConsent', ['s-none', 'allow'])).rejects.toThrow(/no longer open/);
    await expect(handleBridgeInvoke(options, event(killPage, 3), 'kill', ['s-none'])).resolves.toBeNull();
  });

  it('checks the call name and every argument', async () => {
    await expect(handleBridgeInvoke(options, event(APP_PAGE), 'eval', [])).rejects.toThrow(BridgeArgumentError);
    await expect(handleBridgeInvoke(options, event(APP_PAGE), 'getBundle', [])).rejects.toThrow(/getBundle takes 1 argument/);
    await expect(handleBridgeInvoke(options, event(APP_PAGE), 'getBundle', 'b-1')).rejects.toThrow(/arguments must be an array/);
    await expect(handleBridgeInvoke(options, event(APP_PAGE), 'answerConsent', ['c', 'maybe'])).rejects.toThrow(/allow" or "deny/);
    await expect(handleBridgeInvoke(options, event(APP_PAGE), 'saveSettings', [{ demoMode: 'yes' }])).rejects.toThrow();
    expect(host.view().demoMode).toBe(true);
  });
});

describe('the ready message and views', () => {
  it('answers ready with the current view, to a trusted sender only', () => {
    const good = event(APP_PAGE);
    handleReady(options, good);
    expect(good.sent).toEqual([{ channel: CHANNEL_VIEW, args: [host.view()] }]);
    const bad = event('https://evil.example/');
    handleReady(options, bad);
    expect(bad.sent).toEqual([]);
  });

  it('sends views to live windows only', () => {
    const view = host.view();
    const sent: string[] = [];
    const contents = (id: number, destroyed: boolean) =>
      ({ id, isDestroyed: () => destroyed, send: (channel: string, value: HostView) => sent.push(`${id}:${channel}:${value.demoMode}`) }) as unknown as WebContents;
    sendView([contents(1, false), contents(2, true)], view);
    expect(sent).toEqual([`1:${CHANNEL_VIEW}:true`]);
  });
});

describe('registerBridgeIpc', () => {
  it('registers the call handler and the ready listener on ipcMain, and removes them', async () => {
    const handlers = new Map<string, (...args: unknown[]) => unknown>();
    const listeners = new Map<string, (...args: unknown[]) => unknown>();
    const ipcMain = {
      handle: (channel: string, handler: (...args: unknown[]) => unknown) => void handlers.set(channel, handler),
      removeHandler: (channel: string) => void handlers.delete(channel),
      on: (channel: string, listener: (...args: unknown[]) => unknown) => void listeners.set(channel, listener),
      off: (channel: string) => void listeners.delete(channel),
    } as unknown as IpcMain;
    const dispose = registerBridgeIpc(ipcMain, options);
    expect([...handlers.keys()]).toEqual([CHANNEL_CALL]);
    expect([...listeners.keys()]).toEqual([CHANNEL_READY]);
    await expect(handlers.get(CHANNEL_CALL)!(event(APP_PAGE), 'getSettings', [])).resolves.toMatchObject({ demoMode: true });
    await expect(handlers.get(CHANNEL_CALL)!(event('https://evil.example/'), 'getSettings', [])).rejects.toThrow(IpcSenderError);
    dispose();
    expect(handlers.size + listeners.size).toBe(0);
  });
});
