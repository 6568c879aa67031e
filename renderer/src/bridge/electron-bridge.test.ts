import { describe, expect, it } from 'vitest';
import type { BridgeCall, ElectronBridgeApi, HostView } from '../../../src/ui-protocol/index.js';
import { cleanIpcError, createElectronBridge } from './electron-bridge.js';

const view = (bundlesVersion: number): HostView => ({ demoMode: true, consent: null, consentQueue: 0, live: [], bundlesVersion, problems: [] });

/** What a preload exposes, in memory: records calls and lets the test push views. */
function preload(answer: (call: BridgeCall, args: unknown[]) => Promise<unknown>) {
  const listeners = new Set<(view: HostView) => void>();
  const calls: Array<[BridgeCall, unknown[]]> = [];
  const api: ElectronBridgeApi = {
    call(call, args) {
      calls.push([call, args]);
      return answer(call, args);
    },
    onView(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    pictureBase: 'cutright://data',
  };
  return { api, calls, listeners, push: (v: unknown) => listeners.forEach((l) => l(v as HostView)) };
}

describe('createElectronBridge', () => {
  it('fans views out to subscribers, replays the latest, and drops malformed ones', () => {
    const p = preload(async () => null);
    const errors: string[] = [];
    const bridge = createElectronBridge(p.api, { onProtocolError: (e) => errors.push(e.message) });
    const seen: number[] = [];
    const stop = bridge.subscribe((v) => seen.push(v.bundlesVersion));
    p.push(view(1));
    p.push({ nonsense: true });
    p.push(view(2));
    expect(seen).toEqual([1, 2]);
    expect(errors).toEqual(['Invalid host view: demoMode is missing']);
    const late: number[] = [];
    bridge.subscribe((v) => late.push(v.bundlesVersion));
    expect(late).toEqual([2]);
    stop();
    p.push(view(3));
    expect(seen).toEqual([1, 2]);
    bridge.dispose();
    expect(p.listeners.size).toBe(0);
  });

  it('carries calls with their arguments and cleans Electron’s prefix off errors', async () => {
    const p = preload(async (call) => {
      if (call === 'saveSettings') throw new Error("Error invoking remote method 'cutright:call': Error: apps[0].url is not a URL");
      return call === 'listBundles' ? [] : undefined;
    });
    const bridge = createElectronBridge(p.api);
    await expect(bridge.listBundles()).resolves.toEqual([]);
    await bridge.answerConsent('c1', 'allow');
    await expect(bridge.saveSettings({ demoMode: true, apps: [], deniedApps: [] })).rejects.toThrow(/^apps\[0\]\.url is not a URL$/);
    expect(p.calls).toEqual([
      ['listBundles', []],
      ['answerConsent', ['c1', 'allow']],
      ['saveSettings', [{ demoMode: true, apps: [], deniedApps: [] }]],
    ]);
  });

  it('reports itself connected and builds picture URLs under pictureBase', () => {
    const bridge = createElectronBridge(preload(async () => null).api);
    const statuses: string[] = [];
    bridge.onConnection((s) => statuses.push(s));
    expect(statuses).toEqual(['connected']);
    expect(bridge.pictureUrl('b1', 'pictures/1.png')).toBe('cutright://data/bundles/b1/pictures/1.png');
  });

  it('cleanIpcError keeps plain messages as they are', () => {
    expect(cleanIpcError(new Error('plain')).message).toBe('plain');
    expect(cleanIpcError('text').message).toBe('text');
  });
});
