// The Electron shell's TargetLauncher: each target is a BrowserWindow of its own, in an
// in-memory session partition of its own (no cookies or storage shared between sessions),
// with no preload and no Node, driven through its webContents' debugger, its renderer below the
// host's CPU priority (src/targets/cpu-priority.ts).
import { randomBytes } from 'node:crypto';
import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';
import { PermissionMissingError } from '../src/session/machine.js';
import { lowerCpuPriority } from '../src/targets/cpu-priority.js';
import type { OpenedTarget, OpenOptions, TargetLauncher } from '../src/targets/types.js';
import { attachDebuggerTransport, type DebuggedContents } from './debugger-transport.js';
import { lockDownSession } from './security.js';
import { TARGET_PARTITION_PREFIX, targetWindowOptions } from './window-options.js';

/** What the launcher uses of a BrowserWindow. */
export type TargetWindow = Pick<BrowserWindow, 'loadURL' | 'destroy' | 'isDestroyed' | 'once'> & {
  readonly webContents: DebuggedContents & Pick<WebContents, 'id' | 'session' | 'getOSProcessId'>;
};

export interface ElectronTargetLauncherOptions {
  /** `new BrowserWindow(options)`. */
  createWindow(options: BrowserWindowConstructorOptions): TargetWindow;
  /** Asked before every open: a message naming a missing OS permission, or null (permissions.ts). */
  missingPermission?: () => string | null;
  /** A fresh partition name (default: random, in memory). */
  newPartition?: () => string;
  log?: (message: string) => void;
}

export interface ElectronTargetLauncher extends TargetLauncher {
  /** Whether a webContents is one of the targets' (for the navigation policy). */
  isTarget(contents: Pick<WebContents, 'id'>): boolean;
  /**
   * A hidden blank window, in a session of its own, driven through its debugger: the page a
   * video or GIF export is drawn and encoded in (src/export/render-page.ts, which takes it to
   * its own https origin through CDP's Fetch domain). Never shown, never a demo target.
   */
  openRenderTarget(): Promise<OpenedTarget>;
}

function targetUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`cannot open target: ${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`cannot open target ${parsed.href}: only http and https pages are demoed`);
  }
  return parsed;
}

export function createElectronTargetLauncher(options: ElectronTargetLauncherOptions): ElectronTargetLauncher {
  const log = options.log ?? (() => {});
  const newPartition = options.newPartition ?? (() => `${TARGET_PARTITION_PREFIX}${randomBytes(12).toString('hex')}`);
  const windows = new Map<number, TargetWindow>();
  let closed = false;

  const destroy = (window: TargetWindow, id: number) => {
    windows.delete(id);
    if (window.isDestroyed()) return;
    try {
      if (window.webContents.debugger.isAttached()) window.webContents.debugger.detach();
    } catch {
      // detaching a debugger of a page that is going away may throw; it goes away anyway
    }
    // destroy, not close: a target's beforeunload handler must not keep it open.
    window.destroy();
  };

  /**
   * Puts the window's renderer below the host's CPU priority, so that the page cannot starve
   * the kill control; again after each navigation, which may move the page to a new renderer.
   */
  const lowerRenderer = (window: TargetWindow, what: string) => {
    if (window.isDestroyed()) return;
    const pid = window.webContents.getOSProcessId();
    void lowerCpuPriority(pid).then((problems) => problems.forEach((problem) => log(`${what}: ${problem}`)));
  };

  /** A locked-down window of its own session at `url`, with a debugger transport onto it. */
  async function openWindow(url: string, title: string, show: boolean, what: string): Promise<OpenedTarget> {
    const window = options.createWindow(targetWindowOptions(newPartition(), title, { show }));
    const id = window.webContents.id;
    windows.set(id, window);
    window.once('closed', () => windows.delete(id));
    try {
      // Before the page loads: its permission requests are denied, like the host's.
      lockDownSession(window.webContents.session, (message) => log(`${what}: ${message}`));
      const transport = attachDebuggerTransport(window.webContents);
      window.webContents.on('did-navigate', () => lowerRenderer(window, what));
      await window.loadURL(url);
      lowerRenderer(window, what);
      let closing: Promise<void> | undefined;
      return {
        transport,
        close() {
          closing ??= Promise.resolve().then(() => destroy(window, id));
          return closing;
        },
      };
    } catch (error) {
      destroy(window, id);
      throw new Error(`could not open ${url} in a window: ${(error as Error).message}`);
    }
  }

  return {
    async open(url: string, openOptions: OpenOptions = {}): Promise<OpenedTarget> {
      if (closed) throw new Error('the launcher is closed');
      const parsed = targetUrl(url);
      const missing = options.missingPermission?.() ?? null;
      if (missing) throw new PermissionMissingError(missing);
      return openWindow(parsed.href, `CutRight demo: ${parsed.host}`, !openOptions.hidden, `target ${parsed.host}`);
    },
    async openRenderTarget(): Promise<OpenedTarget> {
      if (closed) throw new Error('the launcher is closed');
      return openWindow('about:blank', 'CutRight export', false, 'export page');
    },
    isTarget(contents) {
      return windows.has(contents.id);
    },
    async close(): Promise<void> {
      closed = true;
      for (const [id, window] of [...windows]) destroy(window, id);
    },
  };
}
