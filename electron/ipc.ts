// The only file that touches ipcMain: one invoke channel carrying HostBridge calls, one
// "ready" message, and the view pushed to host windows. Every message is refused unless it
// comes from the top frame of a host window showing the app's own page, and only for the
// calls that window's role may make; every payload is checked against the UI protocol's
// table (dispatchBridgeCall) before use.
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { dispatchBridgeCall, isBridgeRefusal } from '../src/ui-protocol/dispatch.js';
import type { HostBridge, HostView } from '../src/ui-protocol/index.js';
import { isAppPageUrl } from './app-protocol.js';
import { CHANNEL_CALL, CHANNEL_READY, CHANNEL_VIEW, type HostWindowRole } from './ipc-channels.js';

export class IpcSenderError extends Error {
  override readonly name = 'IpcSenderError';
}

/** Tells which host window a webContents is, or undefined when it is not one. */
export type RoleOf = (contents: WebContents) => HostWindowRole | undefined;

type SenderEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

/**
 * The sender check: the message must come from a live top frame showing the app's page
 * (cutright://app/index.html), in a webContents the main process created as a host window.
 * Returns that window's role.
 */
export function checkSender(event: SenderEvent, roleOf: RoleOf): HostWindowRole {
  const frame = event.senderFrame;
  if (!frame) throw new IpcSenderError('refused an IPC message: its frame is gone');
  if (frame.parent !== null) throw new IpcSenderError(`refused an IPC message from a subframe (${frame.url})`);
  if (!isAppPageUrl(frame.url)) throw new IpcSenderError(`refused an IPC message from ${JSON.stringify(frame.url)}: not the app's own page`);
  const role = roleOf(event.sender);
  if (!role) throw new IpcSenderError("refused an IPC message from a window that is not one of CutRight's");
  return role;
}

export interface BridgeIpcOptions {
  bridge: HostBridge;
  roleOf: RoleOf;
  /** The current view, sent to a window when its page says it is ready. */
  currentView(): HostView;
  log?: (message: string) => void;
}

/** Handles one `cutright:call` invoke: sender, then call name and role, then the arguments. */
export async function handleBridgeInvoke(options: BridgeIpcOptions, event: SenderEvent, call: unknown, args: unknown): Promise<unknown> {
  const log = options.log ?? (() => {});
  let role: HostWindowRole;
  try {
    role = checkSender(event, options.roleOf);
  } catch (error) {
    log((error as Error).message);
    throw error;
  }
  try {
    return await dispatchBridgeCall(options.bridge, { name: `the ${role} window`, roles: [role] }, call, args);
  } catch (error) {
    if (isBridgeRefusal(error)) log(`refused a call from the ${role} window: ${(error as Error).message}`);
    throw error;
  }
}

/** Answers `cutright:ready` with the current view, to the sender only. */
export function handleReady(options: BridgeIpcOptions, event: Pick<IpcMainEvent, 'sender' | 'senderFrame'>): void {
  try {
    checkSender(event, options.roleOf);
  } catch (error) {
    options.log?.((error as Error).message);
    return;
  }
  event.sender.send(CHANNEL_VIEW, options.currentView());
}

/** Registers the handlers on ipcMain; returns their disposer. */
export function registerBridgeIpc(ipcMain: IpcMain, options: BridgeIpcOptions): () => void {
  const onReady = (event: IpcMainEvent) => handleReady(options, event);
  ipcMain.handle(CHANNEL_CALL, (event, call: unknown, args: unknown) => handleBridgeInvoke(options, event, call, args));
  ipcMain.on(CHANNEL_READY, onReady);
  return () => {
    ipcMain.removeHandler(CHANNEL_CALL);
    ipcMain.off(CHANNEL_READY, onReady);
  };
}

/** Sends the view to every live host window. */
export function sendView(windows: Iterable<WebContents>, view: HostView): void {
  for (const contents of windows) {
    if (!contents.isDestroyed()) contents.send(CHANNEL_VIEW, view);
  }
}
