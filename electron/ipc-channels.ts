// The IPC channels between the host windows' preloads and the main process, and which bridge
// calls each window may make (derived from the UI protocol's table). The preloads are built
// from one source that imports this file (electron/preload/), so nothing here is repeated.
import { WINDOW_ROLES, callsOf, type BridgeCall, type WindowRole } from '../src/ui-protocol/index.js';

/** renderer → main, `ipcRenderer.invoke(CALL, call, args)`: one HostBridge call. */
export const CHANNEL_CALL = 'cutright:call';
/** main → renderer, `webContents.send(VIEW, view)`: the HostView, whole, on every change. */
export const CHANNEL_VIEW = 'cutright:view';
/** renderer → main, `ipcRenderer.send(READY)`: the page listens now; main answers with the current view. */
export const CHANNEL_READY = 'cutright:ready';

/** main → renderer, `webContents.send(FRAME, header, jpeg)`: one live frame (LiveFrameHeader), main and kill windows only. */
export const CHANNEL_FRAME = 'cutright:frame';
/** renderer → main, `ipcRenderer.send(FRAME_TAKEN)`: the page took the last frame; the next may come. */
export const CHANNEL_FRAME_TAKEN = 'cutright:frame-taken';

/** The windows that show live views and get live frames: never the consent window. */
export const FRAME_ROLES: readonly WindowRole[] = ['main', 'kill'];

/** The host's own windows. Targets are not host windows: they get no preload and no IPC. */
export type HostWindowRole = WindowRole;

export const HOST_WINDOW_ROLES: readonly HostWindowRole[] = WINDOW_ROLES;

/**
 * What each window may ask for: the consent window only answers consent, the kill control
 * only kills. The main process enforces this per sender; the preloads narrow it again.
 */
export const WINDOW_CALLS: Readonly<Record<HostWindowRole, readonly BridgeCall[]>> = {
  main: callsOf('main'),
  consent: callsOf('consent'),
  kill: callsOf('kill'),
};
