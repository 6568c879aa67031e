// BrowserWindow options for every window the Electron shell opens, as pure functions so a
// plain-Node test can assert each security flag. Host windows (main, consent, kill) get a
// narrow preload of their own and the host's session; targets get no preload, no Node, and a
// session partition of their own.
import path from 'node:path';
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import type { HostWindowRole } from './ipc-channels.js';

/** The in-memory session every host window shares; the app protocol is served only there. */
export const HOST_PARTITION = 'cutright-host';
/** Target sessions are in memory too (no `persist:`): nothing is kept between demo sessions. */
export const TARGET_PARTITION_PREFIX = 'cutright-target-';

/** What no window of this app ever gets: Node, a way around isolation, webviews, remote content. */
export const LOCKED_WEB_PREFERENCES = Object.freeze({
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  plugins: false,
  enableWebSQL: false,
  safeDialogs: true,
} satisfies WebPreferences);

/** The preload of each host window, bundled from electron/preload/<role>.ts. */
export function preloadPath(preloadDir: string, role: HostWindowRole): string {
  return path.join(preloadDir, `${role}.cjs`);
}

export interface HostWindowContext {
  /** dist/electron/preload: where the compiled preloads are. */
  preloadDir: string;
  /** Developer tools: on in development, off in a packaged app. */
  devTools: boolean;
  /** The app icon for window frames (Linux, Windows), if there is one. */
  icon?: string;
}

/** Where the kill control sits: the top right corner of the work area, with a margin. */
export function killWindowPosition(workArea: { x: number; y: number; width: number; height: number }, size = KILL_WINDOW_SIZE): { x: number; y: number } {
  const margin = 16;
  return { x: Math.round(workArea.x + workArea.width - size.width - margin), y: Math.round(workArea.y + margin) };
}

export const KILL_WINDOW_SIZE = Object.freeze({ width: 340, height: 168 });

function hostWebPreferences(role: HostWindowRole, context: HostWindowContext): WebPreferences {
  return {
    ...LOCKED_WEB_PREFERENCES,
    preload: preloadPath(context.preloadDir, role),
    partition: HOST_PARTITION,
    devTools: context.devTools,
    // The kill control and the consent dialog must keep ticking and answering while hidden
    // behind other windows.
    backgroundThrottling: role === 'main',
  };
}

/** The main window: sessions, bundles and settings. */
export function mainWindowOptions(context: HostWindowContext): BrowserWindowConstructorOptions {
  return {
    title: 'CutRight',
    width: 1100,
    height: 760,
    minWidth: 640,
    minHeight: 480,
    show: false,
    ...(context.icon ? { icon: context.icon } : {}),
    webPreferences: hostWebPreferences('main', context),
  };
}

/**
 * The consent dialog: small, on top of everything, focused, not resizable or minimizable, so
 * the question cannot be hidden behind the agent's windows. Closing it denies (main.ts).
 * Content protection is set after creation (applyHostWindowGuards).
 */
export function consentWindowOptions(context: HostWindowContext): BrowserWindowConstructorOptions {
  return {
    title: 'CutRight: allow a demo?',
    width: 480,
    height: 360,
    useContentSize: true,
    center: true,
    show: false,
    alwaysOnTop: true,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: false,
    focusable: true,
    ...(context.icon ? { icon: context.icon } : {}),
    webPreferences: hostWebPreferences('consent', context),
  };
}

/**
 * The kill control: a small frameless window on top of everything (even full-screen apps),
 * on every workspace, that the person can always reach. It does not close by itself; the
 * main process removes it when the last session ends.
 */
export function killWindowOptions(context: HostWindowContext, position?: { x: number; y: number }): BrowserWindowConstructorOptions {
  return {
    title: 'CutRight: Stop demo',
    ...KILL_WINDOW_SIZE,
    ...(position ?? {}),
    useContentSize: true,
    show: false,
    frame: false,
    alwaysOnTop: true,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    closable: false,
    skipTaskbar: true,
    hasShadow: true,
    ...(context.icon ? { icon: context.icon } : {}),
    webPreferences: hostWebPreferences('kill', context),
  };
}

export function hostWindowOptions(role: HostWindowRole, context: HostWindowContext, position?: { x: number; y: number }): BrowserWindowConstructorOptions {
  switch (role) {
    case 'main':
      return mainWindowOptions(context);
    case 'consent':
      return consentWindowOptions(context);
    case 'kill':
      return killWindowOptions(context, position);
  }
}

/**
 * A target: the web app the agent drives, shown to the person. No preload, no Node, its own
 * in-memory session; kept painting while in the background so pictures stay current.
 */
export function targetWindowOptions(partition: string, title = 'CutRight target', { show = true }: { show?: boolean } = {}): BrowserWindowConstructorOptions {
  if (!partition.startsWith(TARGET_PARTITION_PREFIX)) throw new Error(`a target's partition must start with ${TARGET_PARTITION_PREFIX}, got ${JSON.stringify(partition)}`);
  return {
    title,
    width: 1280,
    height: 800,
    // Hidden only for "Check this app": a session's target is on screen, where the person sees it.
    show,
    webPreferences: {
      ...LOCKED_WEB_PREFERENCES,
      partition,
      devTools: false,
      backgroundThrottling: false,
    },
  };
}

/** What a created host window must have that no constructor option gives. */
export interface GuardableWindow {
  setContentProtection(enable: boolean): void;
  setAlwaysOnTop(flag: boolean, level?: 'normal' | 'floating' | 'torn-off-menu' | 'modal-panel' | 'main-menu' | 'status' | 'pop-up-menu' | 'screen-saver'): void;
  setVisibleOnAllWorkspaces(visible: boolean, options?: { visibleOnFullScreen?: boolean }): void;
  setMenu(menu: null): void;
}

/**
 * Consent and kill windows are excluded from screen capture (the agent cannot watch or
 * picture them) and float above full-screen apps; no host window has a menu bar with
 * reload or developer tools.
 */
export function applyHostWindowGuards(window: GuardableWindow, role: HostWindowRole): void {
  window.setMenu(null);
  if (role === 'main') return;
  window.setContentProtection(true);
  window.setAlwaysOnTop(true, 'screen-saver');
  if (role === 'kill') window.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
}
