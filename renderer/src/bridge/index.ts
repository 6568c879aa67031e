import type { ElectronBridgeApi } from '../../../src/ui-protocol/index.js';
import { createElectronBridge } from './electron-bridge.js';
import { createWebSocketBridge } from './websocket-bridge.js';
import type { UiBridge } from './types.js';

export type { ConnectionStatus, UiBridge } from './types.js';
export { createElectronBridge } from './electron-bridge.js';
export { createWebSocketBridge } from './websocket-bridge.js';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in the web shell. */
    cutright?: ElectronBridgeApi;
  }
}

/** Electron's bridge when the preload exposed `window.cutright`, else the web shell's WebSocket. */
export function createBridge(): UiBridge {
  return window.cutright ? createElectronBridge(window.cutright) : createWebSocketBridge(location.href);
}
