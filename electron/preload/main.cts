// The main window's preload: sessions, bundles and settings, so every bridge call.
// A sandboxed preload is one CommonJS file that may require only 'electron': the channel
// names are repeated here (electron/ipc-channels.ts has them; preload.test.ts checks they
// match). It exposes exactly one object, `window.cutright` (ElectronBridgeApi), and never
// ipcRenderer itself: the page can use only these channels, and the main process checks the
// sender and every argument again.
// A sandboxed preload is CommonJS; with verbatimModuleSyntax this is how a .cts imports.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
// Types only, erased: the emitted file requires nothing but 'electron'.
import type { BridgeCall, ElectronBridgeApi, HostView, LiveFrameHeader } from '../../src/host/bridge.js';

const CHANNEL_CALL = 'cutright:call';
const CHANNEL_VIEW = 'cutright:view';
const CHANNEL_READY = 'cutright:ready';
const CHANNEL_FRAME = 'cutright:frame';
const CHANNEL_FRAME_TAKEN = 'cutright:frame-taken';
const ALLOWED_CALLS: readonly BridgeCall[] = ['answerConsent', 'kill', 'listBundles', 'getBundle', 'getSettings', 'saveSettings'];
const PICTURE_BASE = 'cutright://app/';

const api: ElectronBridgeApi = {
  call(call, args) {
    if (!ALLOWED_CALLS.includes(call)) return Promise.reject(new Error(`this window may not call ${JSON.stringify(call)}`));
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
  onFrame(listener) {
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
  },
  pictureBase: PICTURE_BASE,
};

electron.contextBridge.exposeInMainWorld('cutright', api);
