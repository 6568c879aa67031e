// Builds each preload exactly as the build does (scripts/build-preloads.mjs), runs it the way
// Electron's sandbox does (a function of require, process, Buffer, global, setImmediate,
// clearImmediate, exports, module) with contextBridge and ipcRenderer stand-ins, and checks
// what the page gets.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { bundlePreload, preloadRoles } from '../scripts/build-preloads.mjs';
import { BRIDGE_CALLS, type ElectronBridgeApi, type HostView } from '../src/ui-protocol/index.js';
import { CHANNEL_CALL, CHANNEL_FRAME, CHANNEL_FRAME_TAKEN, CHANNEL_READY, CHANNEL_VIEW, HOST_WINDOW_ROLES, WINDOW_CALLS, type HostWindowRole } from './ipc-channels.js';
import { PICTURE_BASE } from './app-protocol.js';

class IpcRendererStandIn extends EventEmitter {
  readonly invoked: unknown[][] = [];
  readonly sent: unknown[][] = [];
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push([channel, ...args]);
    return { ok: true };
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args]);
  }
}

function loadPreload(role: HostWindowRole) {
  const outputText = bundlePreload(role);
  const required: string[] = [];
  const exposed: { name: string; api: ElectronBridgeApi }[] = [];
  const ipcRenderer = new IpcRendererStandIn();
  const electron = {
    contextBridge: { exposeInMainWorld: (name: string, api: ElectronBridgeApi) => exposed.push({ name, api }) },
    ipcRenderer,
  };
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`module not found: ${name}`);
    return electron;
  };
  const exports = {};
  const run = new Function('require', 'process', 'Buffer', 'global', 'setImmediate', 'clearImmediate', 'exports', 'module', outputText);
  run(sandboxRequire, {}, undefined, {}, setImmediate, clearImmediate, exports, { exports });
  return { required, exposed, ipcRenderer };
}

it('builds one preload for each host window, and no other', () => {
  expect(preloadRoles()).toEqual([...HOST_WINDOW_ROLES].sort());
});

describe.each(HOST_WINDOW_ROLES)('the %s preload', (role) => {
  it('requires only electron and exposes exactly one small object as window.cutright', () => {
    const { required, exposed } = loadPreload(role);
    expect(required).toEqual(['electron']);
    expect(exposed).toHaveLength(1);
    expect(exposed[0]!.name).toBe('cutright');
    // The main and kill windows show live views; the consent window gets no frames.
    const frames = role === 'consent' ? [] : ['onFrame'];
    expect(Object.keys(exposed[0]!.api).sort()).toEqual(['call', ...frames, 'onView', 'pictureBase'].sort());
    expect(exposed[0]!.api.pictureBase).toBe(PICTURE_BASE);
  });

  it(`lets the page make only the ${role} window's calls, on the call channel`, async () => {
    const { exposed, ipcRenderer } = loadPreload(role);
    const api = exposed[0]!.api;
    for (const call of BRIDGE_CALLS) {
      const result = api.call(call, ['x']);
      if (WINDOW_CALLS[role].includes(call)) await expect(result).resolves.toEqual({ ok: true });
      else await expect(result).rejects.toThrow(/may not call/);
    }
    await expect(api.call('kill' as never, 'not an array' as never)).rejects.toThrow();
    await expect(api.call('__proto__' as never, [])).rejects.toThrow(/may not call/);
    expect(ipcRenderer.invoked).toEqual(WINDOW_CALLS[role].map((call) => [CHANNEL_CALL, call, ['x']]));
  });

  it('hands the page views (never the IPC event), asks for the current one, and lets go', () => {
    const { exposed, ipcRenderer } = loadPreload(role);
    const views: unknown[] = [];
    const stop = exposed[0]!.api.onView((view) => views.push(view));
    expect(ipcRenderer.sent).toEqual([[CHANNEL_READY]]);
    const view = { demoMode: true, consent: null, consentQueue: 0, live: [], bundlesVersion: 1, problems: [] } satisfies HostView;
    ipcRenderer.emit(CHANNEL_VIEW, { sender: ipcRenderer, ports: [] }, view);
    stop();
    ipcRenderer.emit(CHANNEL_VIEW, {}, { ...view, bundlesVersion: 2 });
    expect(views).toEqual([view]);
    expect(ipcRenderer.listenerCount(CHANNEL_VIEW)).toBe(0);
    expect(() => exposed[0]!.api.onView('not a function' as never)).toThrow(/needs a function/);
  });
});

describe('the consent window shows the same facts as the web shell', () => {
  it('hands its page the whole consent prompt: the app, its URL, who asked (pid, executable, user) and the claimed name', () => {
    const { exposed, ipcRenderer } = loadPreload('consent');
    const views: HostView[] = [];
    exposed[0]!.api.onView((view) => views.push(view));
    const consent = {
      consentId: 's-1',
      appId: 'app.example',
      appName: 'Example',
      appUrl: 'https://example.test/app',
      agentName: 'Claimed Agent',
      requester: { pid: 4242, executable: '/usr/bin/agent', otherUser: 'mallory', sharedWith: 1, unknown: null },
      requestedAt: 1,
    };
    const view = { demoMode: true, consent, consentQueue: 0, live: [], bundlesVersion: 0, problems: [] } satisfies HostView;
    ipcRenderer.emit(CHANNEL_VIEW, { sender: ipcRenderer, ports: [] }, view);
    // The renderer's ConsentDialog (the same component as the web shell's) renders from this.
    expect(views).toEqual([view]);
    expect(views[0]!.consent?.requester).toEqual({ pid: 4242, executable: '/usr/bin/agent', otherUser: 'mallory', sharedWith: 1, unknown: null });
    expect(WINDOW_CALLS.consent).toEqual(expect.arrayContaining(['answerConsent', 'denyAllWaiting']));
  });
});

describe.each(['main', 'kill'] as const)('the %s preload: live frames', (role) => {
  it('hands the page only the header and the JPEG, and says when it took each frame', () => {
    const { exposed, ipcRenderer } = loadPreload(role);
    const got: unknown[][] = [];
    const stop = exposed[0]!.api.onFrame!((header, data) => got.push([header, data]));
    const header = { type: 'frame', sessionId: 's-1', seq: 1, at: 1, width: 2, height: 2, viewport: { width: 2, height: 2 } };
    ipcRenderer.emit(CHANNEL_FRAME, { sender: ipcRenderer, ports: [] }, header, new Uint8Array([0xff, 0xd8]));
    expect(got).toEqual([[header, new Uint8Array([0xff, 0xd8])]]);
    expect(ipcRenderer.sent).toContainEqual([CHANNEL_FRAME_TAKEN]);
    stop();
    expect(ipcRenderer.listenerCount(CHANNEL_FRAME)).toBe(0);
  });
});
