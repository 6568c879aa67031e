// The Electron shell's main process: the product people install. It starts the same core as
// the web shell (startHostCore) with targets opened as BrowserWindows, and shows the host's
// state in its own windows: the main window (sessions, bundles, settings), the consent
// dialog, the kill control, a tray icon and a global shortcut. Everything here is glue; the
// logic it calls is in the modules beside it and is tested in plain Node.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  globalShortcut,
  ipcMain,
  Menu,
  nativeImage,
  protocol,
  screen,
  session,
  shell,
  systemPreferences,
  Tray,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron';
import type { HostView } from '../src/ui-protocol/index.js';
import { startHostCore, type HostCore } from '../src/host/start-host.js';
import { HostRunningError } from '../src/instance/host-lock.js';
import { LAUNCH_USAGE, LaunchUsageError, parseLaunchArgs, type LaunchOptions } from '../src/launcher/options.js';
import { EXIT_ALREADY_RUNNING, alreadyRunningReport, readyReport, startupProblem } from '../src/launcher/startup.js';
import { terminalSafe } from '../src/launcher/terminal-text.js';
import { APP_ORIGIN, APP_SCHEME, appPageUrl, createAppRequestHandler } from './app-protocol.js';
import { CHANNEL_FRAME_TAKEN, type HostWindowRole } from './ipc-channels.js';
import { registerBridgeIpc, sendView } from './ipc.js';
import { createLiveFrameSender } from './live-frames.js';
import { KILL_SHORTCUT, KILL_SHORTCUT_LABEL } from './kill-all.js';
import { cutrightArgv } from './launch-args.js';
import { missingPermissionMessage } from './permissions.js';
import { createPopupWindows, type PopupWindows } from './popup-windows.js';
import { blockRemoteRequests, hardenWebContents, lockDownSession, type ContentsKind } from './security.js';
import { createElectronTargetLauncher, type ElectronTargetLauncher } from './target-launcher.js';
import { trayIconBitmap, trayModel, type TrayAction } from './tray.js';
import { applyHostWindowGuards, HOST_PARTITION, hostWindowOptions, killWindowPosition } from './window-options.js';

const here = path.dirname(fileURLToPath(import.meta.url)); // dist/electron
const rendererDir = path.join(here, '..', 'renderer');
const preloadDir = path.join(here, 'preload');

const say = (stream: NodeJS.WritableStream, text: string) => stream.write(text.endsWith('\n') ? text : `${text}\n`);
// Host messages may quote what an agent sent: shown, never obeyed by the terminal.
const log = (message: string) => say(process.stderr, `cutright: ${terminalSafe(message)}`);

function fail(message: string, code: number): never {
  say(process.stderr, `cutright: ${message}`);
  app.exit(code);
  // app.exit ends the process; this keeps the type checker and a slow exit honest.
  process.exit(code);
}

// ---- before ready: arguments, the app scheme, the sandbox, the hardening hook ----

let options: LaunchOptions;
try {
  options = parseLaunchArgs(cutrightArgv(process.argv, app.isPackaged), process.env);
} catch (error) {
  if (!(error instanceof LaunchUsageError)) throw error;
  fail(`${error.message}\n${LAUNCH_USAGE}`, 2);
}
const problem = startupProblem(options, rendererDir);
if (problem) fail(problem.message, problem.code);

app.setName('CutRight');
// Every renderer sandboxed, whatever a window's options say.
app.enableSandbox();
protocol.registerSchemesAsPrivileged([
  // standard + secure: a real origin (cutright://app) with a secure context. Not corsEnabled:
  // no other origin (a target page) can read it.
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

/** webContents id → host window role; targets are the launcher's. */
const hostRoles = new Map<number, HostWindowRole>();
let launcher: ElectronTargetLauncher | undefined;

function kindOf(contents: WebContents): ContentsKind {
  if (hostRoles.has(contents.id)) return 'host';
  if (launcher?.isTarget(contents)) return 'target';
  return 'other';
}

app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, kindOf, log));

// ---- the app ----

let core: HostCore | undefined;
let popups: PopupWindows | undefined;
let tray: Tray | undefined;
let mainWindow: BrowserWindow | undefined;
let shuttingDown: Promise<void> | undefined;
let exiting = false;

function hostContents(): WebContents[] {
  return BrowserWindow.getAllWindows()
    .map((window) => window.webContents)
    .filter((contents) => hostRoles.has(contents.id));
}

function openHostWindow(role: HostWindowRole): BrowserWindow {
  const position = role === 'kill' ? killWindowPosition(screen.getPrimaryDisplay().workArea) : undefined;
  const window = new BrowserWindow(hostWindowOptions(role, { preloadDir, devTools: !app.isPackaged }, position));
  const id = window.webContents.id;
  hostRoles.set(id, role);
  window.once('closed', () => hostRoles.delete(id));
  applyHostWindowGuards(window, role);
  window.once('ready-to-show', () => {
    if (role === 'kill') {
      // Shown without taking focus from the consent dialog or the person's work.
      window.showInactive();
      return;
    }
    window.show();
    if (role === 'consent') window.moveTop();
    window.focus();
  });
  window.loadURL(appPageUrl(role)).catch((error: unknown) => log(`the ${role} window could not load its page: ${(error as Error).message}`));
  return window;
}

function showMainWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    mainWindow = openHostWindow('main');
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function stopAll(source: string): void {
  if (!core) return;
  core.host.killAll('kill control').then(
    (count) => {
      if (count > 0) log(`${source}: stopped ${count} demo${count === 1 ? '' : 's'}`);
    },
    (error: unknown) => log(`${source}: stopping failed: ${(error as Error).message}`),
  );
}

function trayImage(live: boolean): Electron.NativeImage {
  // 16 pt at 2x: sharp on high-density displays, scaled down elsewhere.
  const size = 32;
  return nativeImage.createFromBitmap(trayIconBitmap(size, live), { width: size, height: size, scaleFactor: 2 });
}

let trayLive: boolean | undefined;
function updateTray(view: HostView): void {
  if (!tray || tray.isDestroyed()) return;
  const model = trayModel(view);
  if (model.live !== trayLive) {
    trayLive = model.live;
    tray.setImage(trayImage(model.live));
  }
  tray.setToolTip(model.tooltip);
  const run = (action: TrayAction) => {
    if (action === 'stop-all') stopAll('tray');
    else if (action === 'show-main') showMainWindow();
    else app.quit();
  };
  const template: MenuItemConstructorOptions[] = model.items.map((item) => {
    if (item.kind === 'separator') return { type: 'separator' };
    if (item.kind === 'status') return { label: item.label, enabled: false };
    return { label: item.label, enabled: item.enabled, ...(item.action === 'stop-all' ? { accelerator: KILL_SHORTCUT } : {}), click: () => run(item.action) };
  });
  tray.setContextMenu(Menu.buildFromTemplate(template));
}

/** No View menu (reload, developer tools) in a packaged app; Edit keeps copy and paste working on macOS. */
function applicationMenu(): Menu {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : [{ label: 'CutRight', submenu: [{ role: 'quit' as const }] }]),
    { role: 'editMenu' },
    { label: 'Demo', submenu: [{ label: 'Stop demo', accelerator: KILL_SHORTCUT, click: () => stopAll('menu') }] },
    ...(app.isPackaged ? [] : [{ role: 'viewMenu' as const }]),
  ];
  return Menu.buildFromTemplate(template);
}

/** Ends live sessions as killed, seals their bundles, closes the socket; once. */
function shutdown(why: string): Promise<void> {
  shuttingDown ??= (async () => {
    log(`${why}: ending live sessions as killed and sealing their bundles`);
    globalShortcut.unregisterAll();
    try {
      await core?.stop();
    } catch (error) {
      log(`shutting down the host failed: ${(error as Error).message}`);
    }
    popups?.closeAll();
    tray?.destroy();
  })();
  return shuttingDown;
}

function shutdownAndExit(why: string): void {
  void shutdown(why).finally(() => {
    exiting = true;
    app.exit(0);
  });
}

app.on('before-quit', (event) => {
  if (exiting) return;
  event.preventDefault();
  shutdownAndExit('quitting');
});
// Closing the last window ends the app on every platform (macOS included): a demo host that
// lingers unseen is not what a person closing it expects.
app.on('window-all-closed', () => shutdownAndExit('the last window was closed'));
process.once('SIGTERM', () => shutdownAndExit('SIGTERM'));
process.once('SIGINT', () => shutdownAndExit('SIGINT'));
app.on('activate', () => showMainWindow());

/** Reveal folder: the desktop's file manager with the bundle's folder selected. */
async function revealInFileManager(folder: string): Promise<void> {
  shell.showItemInFolder(folder);
}

async function run(): Promise<void> {
  Menu.setApplicationMenu(applicationMenu());
  const hostSession = session.fromPartition(HOST_PARTITION);
  lockDownSession(hostSession, log);
  blockRemoteRequests(hostSession, log);
  hostSession.protocol.handle(
    APP_SCHEME,
    createAppRequestHandler({
      rendererDir,
      picturePath: (bundleId, picture) => core?.bundles.picturePath(bundleId, picture) ?? null,
      framePath: async (bundleId, frame) => (core ? core.bundles.framePath(bundleId, frame) : null),
    }),
  );

  launcher = createElectronTargetLauncher({
    createWindow: (windowOptions) => new BrowserWindow(windowOptions),
    missingPermission: () => missingPermissionMessage(process.platform, systemPreferences),
    log,
  });
  try {
    core = await startHostCore({
      dataDir: options.dataDir,
      socketPath: options.socketPath,
      fixtures: options.fixtures,
      launcher,
      // Video and GIF exports are drawn and encoded in a hidden window of their own.
      openRenderTarget: () => launcher!.openRenderTarget(),
      answeredBy: 'local user in the CutRight app',
      revealFolder: revealInFileManager,
      log,
    });
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof HostRunningError) {
      const report = alreadyRunningReport(error, options.json);
      if (report.stdout) say(process.stdout, report.stdout);
      if (!options.json) dialog.showErrorBox('CutRight is already running', message);
      fail(report.stderr ?? 'already running', EXIT_ALREADY_RUNNING);
    }
    if (!options.json) dialog.showErrorBox('CutRight could not start', message);
    fail(message, 1);
  }
  const host = core.host;
  host.setOwnOrigins([APP_ORIGIN]);

  registerBridgeIpc(ipcMain, { bridge: host.bridge, roleOf: (contents) => hostRoles.get(contents.id), currentView: () => host.view(), log });
  popups = createPopupWindows({ openWindow: (role) => openHostWindow(role), answerConsent: (consentId, answer) => host.bridge.answerConsent(consentId, answer), log });

  tray = new Tray(trayImage(false));
  if (!globalShortcut.register(KILL_SHORTCUT, () => stopAll('shortcut'))) {
    log(`the global shortcut ${KILL_SHORTCUT_LABEL} is taken by another app; use the kill control or the tray's Stop demo`);
  }

  const frames = createLiveFrameSender({ roleOf: (contents) => hostRoles.get(contents.id), log });
  ipcMain.on(CHANNEL_FRAME_TAKEN, (event) => frames.taken(event));
  host.bridge.subscribeFrames((frame) => frames.send(hostContents(), frame));
  host.bridge.subscribe((view) => {
    sendView(hostContents(), view);
    popups?.update(view);
    updateTray(view);
  });
  showMainWindow();

  await core.lock.publish('electron', null).catch((error: unknown) => log(`could not record this app in the data folder's lock: ${(error as Error).message}`));
  say(process.stdout, readyReport({ options, ui: 'electron', uiUrl: null, stopHint: `${KILL_SHORTCUT_LABEL}, the kill control, or the tray's Stop demo` }));
}

app.whenReady().then(run, (error: unknown) => fail(`Electron did not start: ${(error as Error).message}`, 1)).catch((error: unknown) => {
  log(`could not start: ${(error as Error).stack ?? String(error)}`);
  shutdownAndExit('a start-up failure');
});
