import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_WINDOW_ROLES } from './ipc-channels.js';
import {
  applyHostWindowGuards,
  consentWindowOptions,
  HOST_PARTITION,
  hostWindowOptions,
  killWindowOptions,
  killWindowPosition,
  mainWindowOptions,
  targetWindowOptions,
  type GuardableWindow,
} from './window-options.js';

const context = { preloadDir: '/app/dist/electron/preload', devTools: false };

/** Every flag the issue asks of every window, asserted one by one so a regression names itself. */
function expectLockedDown(webPreferences: Electron.WebPreferences | undefined): void {
  expect(webPreferences).toBeDefined();
  const prefs = webPreferences!;
  expect(prefs.contextIsolation).toBe(true);
  expect(prefs.sandbox).toBe(true);
  expect(prefs.nodeIntegration).toBe(false);
  expect(prefs.nodeIntegrationInWorker).toBe(false);
  expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  expect(prefs.webSecurity).toBe(true);
  expect(prefs.allowRunningInsecureContent).toBe(false);
  expect(prefs.webviewTag).toBe(false);
  expect(prefs.spellcheck).toBe(false);
  expect(prefs.experimentalFeatures).toBe(false);
  expect(prefs.navigateOnDragDrop).toBe(false);
  expect(prefs.enableBlinkFeatures).toBeUndefined();
  expect(prefs.additionalArguments).toBeUndefined();
}

describe('host window options', () => {
  it.each(HOST_WINDOW_ROLES)('the %s window is locked down, in the host session, with its own preload', (role) => {
    const options = hostWindowOptions(role, context);
    expectLockedDown(options.webPreferences);
    expect(options.webPreferences?.partition).toBe(HOST_PARTITION);
    expect(HOST_PARTITION.startsWith('persist:')).toBe(false);
    expect(options.webPreferences?.preload).toBe(path.join(context.preloadDir, `${role}.cjs`));
    expect(options.webPreferences?.devTools).toBe(false);
    expect(options.show).toBe(false);
  });

  it('gives each window a different preload', () => {
    const preloads = HOST_WINDOW_ROLES.map((role) => hostWindowOptions(role, context).webPreferences?.preload);
    expect(new Set(preloads).size).toBe(3);
  });

  it('keeps developer tools only when asked (development)', () => {
    expect(mainWindowOptions({ ...context, devTools: true }).webPreferences?.devTools).toBe(true);
  });

  it('puts the consent dialog on top, small and fixed, and keeps it running in the background', () => {
    const options = consentWindowOptions(context);
    expect(options.alwaysOnTop).toBe(true);
    expect(options.resizable).toBe(false);
    expect(options.minimizable).toBe(false);
    expect(options.fullscreenable).toBe(false);
    expect(options.focusable).toBe(true);
    expect(options.width).toBeLessThanOrEqual(520);
    expect(options.webPreferences?.backgroundThrottling).toBe(false);
  });

  it('makes the kill control a small frameless always-on-top window the person cannot close by accident', () => {
    const options = killWindowOptions(context, { x: 10, y: 20 });
    expect(options.alwaysOnTop).toBe(true);
    expect(options.frame).toBe(false);
    expect(options.closable).toBe(false);
    expect(options.minimizable).toBe(false);
    expect(options.skipTaskbar).toBe(true);
    expect(options.width).toBeLessThanOrEqual(400);
    expect(options.height).toBeLessThanOrEqual(200);
    expect([options.x, options.y]).toEqual([10, 20]);
    expect(options.webPreferences?.backgroundThrottling).toBe(false);
  });

  it('places the kill control in the top right corner of the work area', () => {
    expect(killWindowPosition({ x: 0, y: 25, width: 1440, height: 875 })).toEqual({ x: 1440 - 340 - 16, y: 25 + 16 });
  });
});

describe('applyHostWindowGuards', () => {
  function recorder() {
    const calls: string[] = [];
    const window: GuardableWindow = {
      setContentProtection: (enable) => void calls.push(`contentProtection:${enable}`),
      setAlwaysOnTop: (flag, level) => void calls.push(`alwaysOnTop:${flag}:${level}`),
      setVisibleOnAllWorkspaces: (visible, options) => void calls.push(`allWorkspaces:${visible}:${options?.visibleOnFullScreen}`),
      setMenu: (menu) => void calls.push(`menu:${menu}`),
    };
    return { calls, window };
  }

  it('excludes the consent dialog from capture and floats it at screen-saver level', () => {
    const { calls, window } = recorder();
    applyHostWindowGuards(window, 'consent');
    expect(calls).toEqual(['menu:null', 'contentProtection:true', 'alwaysOnTop:true:screen-saver']);
  });

  it('excludes the kill control from capture, floats it at screen-saver level, on every workspace', () => {
    const { calls, window } = recorder();
    applyHostWindowGuards(window, 'kill');
    expect(calls).toEqual(['menu:null', 'contentProtection:true', 'alwaysOnTop:true:screen-saver', 'allWorkspaces:true:true']);
  });

  it('gives the main window no menu bar and nothing else', () => {
    const { calls, window } = recorder();
    applyHostWindowGuards(window, 'main');
    expect(calls).toEqual(['menu:null']);
  });
});

describe('target window options', () => {
  it('is locked down, without a preload or devtools, in its own partition', () => {
    const options = targetWindowOptions('cutright-target-abc', 'Demo: example.com');
    expectLockedDown(options.webPreferences);
    expect(options.webPreferences?.preload).toBeUndefined();
    expect(options.webPreferences?.partition).toBe('cutright-target-abc');
    expect(options.webPreferences?.devTools).toBe(false);
    expect(options.webPreferences?.backgroundThrottling).toBe(false);
    expect(options.show).toBe(true);
    expect(options.title).toBe('Demo: example.com');
  });

  it('refuses the host partition or a persistent one', () => {
    expect(() => targetWindowOptions(HOST_PARTITION)).toThrow(/partition must start with cutright-target-/);
    expect(() => targetWindowOptions('persist:cutright-target-x')).toThrow(/partition/);
  });
});
