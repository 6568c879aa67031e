// The Electron shell's transport: the preload's `window.cutright` (ElectronBridgeApi), wrapped
// into a HostBridge. IPC is up as long as the window exists, so it is always `connected`.
import { picturePath, type ElectronBridgeApi, type HostView, type LiveFrame } from '../../../src/ui-protocol/index.js';
import { callMethods } from './call-bridge.js';
import { parseHostView } from './guards.js';
import { createViewFanout } from './view-fanout.js';
import type { UiBridge } from './types.js';

/** Electron's IPC prefixes a rejected handler's message; the person needs only the message. */
export function cleanIpcError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(message.replace(/^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/, ''));
}

export interface ElectronBridgeOptions {
  /** Where views the bridge cannot read are reported. Default: console.error. */
  onProtocolError?: (error: Error) => void;
}

export function createElectronBridge(api: ElectronBridgeApi, options: ElectronBridgeOptions = {}): UiBridge {
  const reportProtocolError = options.onProtocolError ?? ((error: Error) => console.error('CutRight bridge:', error.message));
  const views = createViewFanout();
  // One IPC listener for the window's life; views fan out to the subscribers.
  const stopViews = api.onView((raw) => {
    let view: HostView;
    try {
      view = parseHostView(raw);
    } catch (error) {
      reportProtocolError(error as Error);
      return;
    }
    views.publish(view);
  });
  const frameListeners = new Set<(frame: LiveFrame) => void>();
  // Windows whose preload carries no frames (the consent window) simply show none.
  const stopFrames = api.onFrame?.((header, data) => {
    const frame: LiveFrame = { ...header, data };
    for (const listener of [...frameListeners]) listener(frame);
  }) ?? (() => {});
  const base = api.pictureBase.endsWith('/') ? api.pictureBase : `${api.pictureBase}/`;
  const invoke = async (call: Parameters<ElectronBridgeApi['call']>[0], args: unknown[]): Promise<unknown> => {
    try {
      return await api.call(call, args);
    } catch (error) {
      throw cleanIpcError(error);
    }
  };

  return {
    ...callMethods(invoke),
    subscribe: views.subscribe,
    subscribeFrames(listener) {
      frameListeners.add(listener);
      return () => void frameListeners.delete(listener);
    },
    pictureUrl(bundleId, picture) {
      // picturePath starts with `bundles/`; pictureBase is the URL that folder lives under.
      return new URL(picturePath(bundleId, picture), new URL(base, globalThis.location?.href)).href;
    },
    onConnection(listener) {
      listener('connected');
      return () => {};
    },
    dispose() {
      stopViews();
      stopFrames();
      views.clear();
      frameListeners.clear();
    },
  };
}
