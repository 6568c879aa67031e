// The host windows' preload, one source for all three (main.ts, consent.ts, kill.ts pick the
// role). A sandboxed preload is one CommonJS file that may require only 'electron', so the
// build bundles each entry with what it imports (scripts/build-preloads.mjs): the role's
// allow list comes from the UI protocol's table, the channel names from ipc-channels.ts.
// It exposes exactly one object, `window.cutright` (ElectronBridgeApi), and never ipcRenderer
// itself: the page can use only these channels, and the main process checks the sender and
// every argument again.
import type { ContextBridge, IpcRenderer } from 'electron';
import { callsOf, type BridgeCall, type ElectronBridgeApi, type HostView, type LiveFrameHeader, type WindowRole } from '../../src/ui-protocol/index.js';
import { PICTURE_BASE } from '../app-origin.js';
import { CHANNEL_CALL, CHANNEL_FRAME, CHANNEL_FRAME_TAKEN, CHANNEL_READY, CHANNEL_VIEW, FRAME_ROLES } from '../ipc-channels.js';

/** The two parts of Electron a preload uses (the test passes stand-ins). */
export interface PreloadElectron {
  contextBridge: Pick<ContextBridge, 'exposeInMainWorld'>;
  ipcRenderer: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener' | 'send'>;
}

/** Exposes `window.cutright` for a window of `role`: only that role's calls go through. */
export function exposeHostBridge(electron: PreloadElectron, role: WindowRole): void {
  const allowed: readonly BridgeCall[] = callsOf(role);
  const api: ElectronBridgeApi = {
    call(call, args) {
      if (!allowed.includes(call)) return Promise.reject(new Error(`the ${role} window may not call ${JSON.stringify(call)}`));
      if (!Array.isArray(args)) return Promise.reject(new TypeError(`${call}: arguments must be an array`));
      return electron.ipcRenderer.invoke(CHANNEL_CALL, call, args);
    },
    onView(listener) {
      if (typeof listener !== 'function') throw new TypeError('onView needs a function');
      // The event object (with its sender and ports) never reaches the page: only the view.
      const onMessage = (_event: unknown, view: HostView) => listener(view);
      electron.ipcRenderer.on(CHANNEL_VIEW, onMessage);
      // Asks for the current view now that someone listens; later views are pushed.
      electron.ipcRenderer.send(CHANNEL_READY);
      return () => {
        electron.ipcRenderer.removeListener(CHANNEL_VIEW, onMessage);
      };
    },
    pictureBase: PICTURE_BASE,
  };
  if (FRAME_ROLES.includes(role)) {
    api.onFrame = (listener) => {
      if (typeof listener !== 'function') throw new TypeError('onFrame needs a function');
      // Only the header and the JPEG reach the page; taking one lets the main process send the next.
      const onMessage = (_event: unknown, header: LiveFrameHeader, data: Uint8Array) => {
        try {
          listener(header, data);
        } finally {
          electron.ipcRenderer.send(CHANNEL_FRAME_TAKEN);
        }
      };
      electron.ipcRenderer.on(CHANNEL_FRAME, onMessage);
      return () => {
        electron.ipcRenderer.removeListener(CHANNEL_FRAME, onMessage);
      };
    };
  }
  electron.contextBridge.exposeInMainWorld('cutright', api);
}
