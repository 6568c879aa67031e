import type { BridgeCall, HostBridge } from '../../../src/host/bridge.js';
import { checkCallResult } from './guards.js';

/** Carries one bridge call to the host and back; the transports differ only in this. */
export type Invoke = (call: BridgeCall, args: unknown[]) => Promise<unknown>;

type CallMethods = Omit<HostBridge, 'subscribe' | 'subscribeFrames' | 'pictureUrl'>;

/** The HostBridge's call methods on top of one `invoke`, with each result's shape checked. */
export function callMethods(invoke: Invoke): CallMethods {
  const call = async <T>(name: BridgeCall, args: unknown[]): Promise<T> => checkCallResult(name, await invoke(name, args)) as T;
  return {
    answerConsent: (consentId, answer) => call('answerConsent', [consentId, answer]),
    kill: (sessionId) => call('kill', [sessionId]),
    listBundles: () => call('listBundles', []),
    getBundle: (bundleId) => call('getBundle', [bundleId]),
    getSettings: () => call('getSettings', []),
    saveSettings: (settings) => call('saveSettings', [settings]),
  };
}

/** `bundles/<bundleId>/<picture>` with each path segment URL-encoded. */
export function picturePath(bundleId: string, picture: string): string {
  const segments = picture.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  return ['bundles', bundleId, ...segments].map(encodeURIComponent).join('/');
}
