import { describe, expect, it } from 'vitest';
import type { AppCheckResult, AppEntry, BundleDetail, BundleSummary, ConsentAnswer, ConsentPrompt, ExportFormat, HostBridge, HostView, Settings } from '../../src/ui-protocol/index.js';
import type { ConnectionStatus } from './bridge/types.js';
import { createUiStore } from './store.js';

const summary = (bundleId: string, state: BundleSummary['state'] = 'complete'): BundleSummary => ({
  bundleId,
  sessionId: `s-${bundleId}`,
  appId: 'app.orthiclabs.demo-fixture',
  appName: 'Demo Fixture',
  agentName: 'Claude',
  state,
  reason: state === 'killed' ? 'kill control' : null,
  startedAt: 1000,
  endedAt: state === 'open' ? null : 2000,
  steps: 0,
});

/**
 * A HostBridge held in memory: the test plays the host, changing the view and answering calls
 * (a test double of the transport; the store under test is the real one).
 */
class MemoryBridge implements HostBridge {
  view: HostView = { demoMode: true, consent: null, consentQueue: 0, live: [], bundlesVersion: 0, problems: [] };
  bundles: BundleSummary[] = [summary('b1')];
  settings: Settings = { demoMode: true, apps: [], deniedApps: [] };
  answers: Array<[string, ConsentAnswer]> = [];
  kills: string[] = [];
  calls: string[] = [];
  fail: Partial<Record<string, string>> = {};
  private listeners = new Set<(view: HostView) => void>();
  private statusListeners = new Set<(status: ConnectionStatus) => void>();

  setView(patch: Partial<HostView>): void {
    this.view = { ...this.view, ...patch };
    for (const l of this.listeners) l(this.view);
  }
  setStatus(status: ConnectionStatus): void {
    for (const l of this.statusListeners) l(status);
  }
  get listenerCount(): number {
    return this.listeners.size + this.statusListeners.size;
  }
  private async call<T>(name: string, value: () => T): Promise<T> {
    this.calls.push(name);
    await Promise.resolve();
    if (this.fail[name]) throw new Error(this.fail[name]);
    return value();
  }

  subscribe(listener: (view: HostView) => void): () => void {
    this.listeners.add(listener);
    listener(this.view);
    return () => void this.listeners.delete(listener);
  }
  // The store does not take frames (the live view subscribes to them itself).
  subscribeFrames(): () => void {
    return () => {};
  }
  onConnection(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    listener('connecting');
    return () => void this.statusListeners.delete(listener);
  }
  answerConsent(consentId: string, answer: ConsentAnswer): Promise<void> {
    return this.call('answerConsent', () => {
      this.answers.push([consentId, answer]);
      this.setView({ consent: null });
    });
  }
  kill(sessionId: string): Promise<void> {
    return this.call('kill', () => {
      this.kills.push(sessionId);
      this.setView({ live: this.view.live.filter((s) => s.sessionId !== sessionId) });
    });
  }
  killAll(): Promise<number> {
    return this.call('killAll', () => {
      const count = this.view.live.length;
      this.kills.push(...this.view.live.map((s) => s.sessionId));
      this.setView({ live: [] });
      return count;
    });
  }
  denyAllWaiting(): Promise<number> {
    return this.call('denyAllWaiting', () => {
      const count = (this.view.consent ? 1 : 0) + this.view.consentQueue;
      this.setView({ consent: null, consentQueue: 0 });
      return count;
    });
  }
  listBundles(): Promise<BundleSummary[]> {
    return this.call('listBundles', () => structuredClone(this.bundles));
  }
  getBundle(bundleId: string): Promise<BundleDetail> {
    return this.call('getBundle', () => {
      const s = this.bundles.find((b) => b.bundleId === bundleId);
      if (!s) throw new Error(`no bundle ${bundleId}`);
      return {
        summary: s,
        consent: { agentName: s.agentName, appId: s.appId, appName: s.appName, answer: 'allow', answeredBy: 'person', requestedAt: 1, answeredAt: 2, requester: null },
        steps: [
          { index: 0, receiptId: 'r1', at: 3, op: 'click', ref: 'e1', role: 'button', label: 'Submit', picture: null, caption: this.captions['r1'] ?? 'Click **Submit**', autoCaption: 'Click **Submit**', captionEditedAt: this.captions['r1'] ? 9 : null },
        ],
        edits: null,
        recording: null,
      };
    });
  }
  captions: Record<string, string> = {};
  copied: string[] = [];
  editCaption(bundleId: string, receiptId: string, caption: string | null): Promise<BundleDetail> {
    if (caption === null) delete this.captions[receiptId];
    else this.captions[receiptId] = caption;
    return this.call('editCaption', () => undefined).then(() => this.getBundle(bundleId));
  }
  verifyBundle(bundleId: string) {
    return this.call('verifyBundle', () =>
      bundleId === 'b1'
        ? { ok: true, file: null, problem: null, fingerprint: 'sha256:ab', editedCaptions: 1, editedAt: 9 }
        : { ok: false, file: 'events.ndjson', problem: 'content changed', fingerprint: null, editedCaptions: 0, editedAt: null },
    );
  }
  exportBundle(bundleId: string, format: ExportFormat) {
    return this.call('exportBundle', () => ({ path: `/data/exports/${bundleId}.${format}`, bytes: 20480 }));
  }
  locateBundle(bundleId: string) {
    return this.call('locateBundle', () => `/data/bundles/${bundleId}`);
  }
  revealBundle(bundleId: string) {
    return this.call('revealBundle', () => ({ path: `/data/bundles/${bundleId}`, opened: false, problem: 'xdg-open is not installed here' }));
  }
  deleteBundle(bundleId: string) {
    return this.call('deleteBundle', () => {
      this.bundles = this.bundles.filter((b) => b.bundleId !== bundleId);
    });
  }
  async copyText(text: string): Promise<void> {
    this.copied.push(text);
  }
  pictureUrl(bundleId: string, picture: string): string {
    return `mem:${bundleId}/${picture}`;
  }
  getSettings(): Promise<Settings> {
    return this.call('getSettings', () => structuredClone(this.settings));
  }
  saveSettings(settings: Settings): Promise<Settings> {
    return this.call('saveSettings', () => {
      this.settings = structuredClone(settings);
      return structuredClone(settings);
    });
  }
  builtIn: AppEntry[] = [];
  builtInApps(): Promise<AppEntry[]> {
    return this.call('builtInApps', () => structuredClone(this.builtIn));
  }
  checked: AppEntry[] = [];
  checkApp(app: AppEntry): Promise<AppCheckResult> {
    return this.call('checkApp', () => {
      this.checked.push(app);
      return { url: app.url, state: 'unsafe', reason: 'the page lacks <meta name="cutright-capture-state" content="safe">' };
    });
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

const consent: ConsentPrompt = { consentId: 'c1', appId: 'app.x', appName: 'X', agentName: 'Claude', appUrl: 'https://example.com/', requester: { pid: 4242, executable: '/usr/bin/agent', otherUser: null, sharedWith: 0, unknown: null }, requestedAt: 1 };
const live = { sessionId: 's1', appId: 'app.x', appName: 'X', agentName: 'Claude', phase: 'armed' as const, startedAt: 1, steps: 2, cannotOpen: null };

describe('createUiStore', () => {
  it('mirrors the host view and the connection status', () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    expect(store.getState().view).toEqual(bridge.view);
    expect(store.getState().connection).toBe('connecting');
    bridge.setStatus('connected');
    bridge.setView({ consent, consentQueue: 2 });
    expect(store.getState().view?.consent).toEqual(consent);
    expect(store.getState().view?.consentQueue).toBe(2);
    expect(store.getState().connection).toBe('connected');
    bridge.setStatus('disconnected');
    expect(store.getState().connection).toBe('disconnected');
    store.dispose();
    expect(bridge.listenerCount).toBe(0);
  });

  it('counts a bridge without connection status as connected once a view arrives', () => {
    const bridge = new MemoryBridge();
    const plain: HostBridge = {
      subscribe: (l) => bridge.subscribe(l),
      subscribeFrames: () => bridge.subscribeFrames(),
      answerConsent: (c, a) => bridge.answerConsent(c, a),
      kill: (s) => bridge.kill(s),
      killAll: () => bridge.killAll(),
      denyAllWaiting: () => bridge.denyAllWaiting(),
      listBundles: () => bridge.listBundles(),
      getBundle: (b) => bridge.getBundle(b),
      editCaption: (b, r, c) => bridge.editCaption(b, r, c),
      verifyBundle: (b) => bridge.verifyBundle(b),
      exportBundle: (b, f) => bridge.exportBundle(b, f),
      locateBundle: (b) => bridge.locateBundle(b),
      revealBundle: (b) => bridge.revealBundle(b),
      deleteBundle: (b) => bridge.deleteBundle(b),
      getSettings: () => bridge.getSettings(),
      saveSettings: (s) => bridge.saveSettings(s),
      builtInApps: () => bridge.builtInApps(),
      checkApp: (a) => bridge.checkApp(a),
    };
    const store = createUiStore(plain);
    expect(store.getState().connection).toBe('connected');
    store.dispose();
  });

  it('allow and deny answer the open consent once, and the view (not the store) removes it', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    const { actions } = store.getState();
    await actions.allow(); // nothing open: nothing sent
    expect(bridge.answers).toEqual([]);

    bridge.setView({ consent });
    const first = actions.deny();
    expect(store.getState().answering).toBe('c1');
    const second = actions.deny(); // a double press sends one answer
    await Promise.all([first, second]);
    expect(bridge.answers).toEqual([['c1', 'deny']]);
    expect(store.getState().view?.consent).toBeNull();
    expect(store.getState().answering).toBeNull();

    bridge.setView({ consent: { ...consent, consentId: 'c2' } });
    await actions.allow();
    expect(bridge.answers).toEqual([
      ['c1', 'deny'],
      ['c2', 'allow'],
    ]);
  });

  it('a refused answer leaves the dialog and tells the person why', async () => {
    const bridge = new MemoryBridge();
    bridge.fail.answerConsent = 'consent c1 is no longer open';
    const store = createUiStore(bridge);
    bridge.setView({ consent });
    await store.getState().actions.allow();
    expect(store.getState().view?.consent).toEqual(consent);
    expect(store.getState().notice).toBe('Could not allow the demo: consent c1 is no longer open');
    store.getState().actions.dismissNotice();
    expect(store.getState().notice).toBeNull();
  });

  it('kill calls the bridge at once and tracks it while in flight', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    bridge.setView({ live: [live] });
    const pending = store.getState().actions.kill('s1');
    expect(store.getState().stopping).toEqual(['s1']);
    expect(bridge.calls).toEqual(['kill']);
    await pending;
    expect(bridge.kills).toEqual(['s1']);
    expect(store.getState().stopping).toEqual([]);
    expect(store.getState().view?.live).toEqual([]);

    bridge.fail.kill = 'kill: not connected to the host';
    await store.getState().actions.kill('s2');
    expect(store.getState().notice).toBe('Could not stop the demo: kill: not connected to the host');
    expect(store.getState().stopping).toEqual([]);
  });

  it('killAll is one killAll call, every live session (arming ones too) stopping meanwhile', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    bridge.setView({ live: [live, { ...live, sessionId: 's2' }, { ...live, sessionId: 's3', phase: 'arming' }] });
    const pending = store.getState().actions.killAll();
    expect(bridge.calls).toEqual(['killAll']);
    expect(store.getState().stopping).toEqual(['s1', 's2', 's3']);
    await pending;
    expect(bridge.kills).toEqual(['s1', 's2', 's3']);
    expect(store.getState().stopping).toEqual([]);

    bridge.fail.killAll = 'killAll: not connected to the host';
    bridge.setView({ live: [live] });
    await store.getState().actions.killAll();
    expect(store.getState().notice).toBe('Could not stop the demos: killAll: not connected to the host');
    expect(store.getState().stopping).toEqual([]);
  });

  it('denyAllWaiting is one call; the dialog\'s buttons wait meanwhile', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    bridge.setView({ consent, consentQueue: 2 });
    const pending = store.getState().actions.denyAllWaiting();
    expect(bridge.calls).toEqual(['denyAllWaiting']);
    expect(store.getState().answering).toBe('c1');
    await pending;
    expect(store.getState().view?.consent).toBeNull();
    expect(store.getState().answering).toBeNull();

    bridge.fail.denyAllWaiting = 'denyAllWaiting: not connected to the host';
    bridge.setView({ consent, consentQueue: 1 });
    await store.getState().actions.denyAllWaiting();
    expect(store.getState().notice).toBe('Could not deny the waiting requests: denyAllWaiting: not connected to the host');
    expect(store.getState().answering).toBeNull();
  });

  it('loads bundles, and reloads the list and the open bundle when bundlesVersion changes', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    const { actions } = store.getState();

    bridge.setView({ bundlesVersion: 1 }); // nothing loaded yet: nothing reloaded
    await flush();
    expect(bridge.calls).toEqual([]);

    await actions.loadBundles();
    expect(store.getState().bundles?.map((b) => b.bundleId)).toEqual(['b1']);
    await actions.openBundle('b1');
    expect(store.getState().bundle?.detail?.summary.state).toBe('complete');

    bridge.bundles = [{ ...summary('b1'), state: 'killed', reason: 'kill control' }, summary('b2', 'open')];
    bridge.setView({ bundlesVersion: 2 });
    await flush();
    expect(store.getState().bundles?.map((b) => [b.bundleId, b.state])).toEqual([
      ['b1', 'killed'],
      ['b2', 'open'],
    ]);
    expect(store.getState().bundle?.detail?.summary.state).toBe('killed');

    bridge.setView({ demoMode: false }); // same version: no reload
    await flush();
    expect(bridge.calls.filter((c) => c === 'listBundles')).toHaveLength(2);

    actions.closeBundle();
    expect(store.getState().bundle).toBeNull();
  });

  it('keeps load errors to show, and clears them on success', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    bridge.fail.listBundles = 'the data folder is not readable';
    await store.getState().actions.loadBundles();
    expect(store.getState().bundlesError).toBe('the data folder is not readable');
    delete bridge.fail.listBundles;
    await store.getState().actions.loadBundles();
    expect(store.getState().bundlesError).toBeNull();

    await store.getState().actions.openBundle('missing');
    expect(store.getState().bundle).toEqual({ bundleId: 'missing', detail: null, error: 'no bundle missing' });
  });

  it('an older reply never overwrites a newer one', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const original = bridge.listBundles.bind(bridge);
    let first = true;
    bridge.listBundles = async () => {
      const value = await original();
      if (first) {
        first = false;
        await slow;
        return [summary('stale')];
      }
      return value;
    };
    const older = store.getState().actions.loadBundles();
    await store.getState().actions.loadBundles();
    release();
    await older;
    expect(store.getState().bundles?.map((b) => b.bundleId)).toEqual(['b1']);
  });

  it('loads and saves settings, passing on the host’s refusal', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    await store.getState().actions.loadSettings();
    expect(store.getState().settings).toEqual({ demoMode: true, apps: [], deniedApps: [] });

    const next: Settings = { demoMode: false, apps: [{ id: 'a.b', name: 'AB', url: 'https://ab.example/', allowedOrigins: ['https://ab.example'] }], deniedApps: ['c.d'] };
    await expect(store.getState().actions.saveSettings(next)).resolves.toEqual({ ok: true, settings: next });
    expect(store.getState().settings).toEqual(next);
    expect(bridge.settings).toEqual(next);

    bridge.fail.saveSettings = 'apps[0].id: a.b is also in deniedApps';
    await expect(store.getState().actions.saveSettings({ ...next, deniedApps: ['a.b'] })).resolves.toEqual({
      ok: false,
      message: 'apps[0].id: a.b is also in deniedApps',
    });
    expect(store.getState().settings).toEqual(next);
  });

  it('loads the built-in apps with the settings, and passes a check on as its answer or its failure', async () => {
    const bridge = new MemoryBridge();
    const fixture: AppEntry = { id: 'app.fixture', name: 'Fixture', url: 'http://127.0.0.1:1/', allowedOrigins: ['http://127.0.0.1:1'] };
    bridge.builtIn = [fixture];
    const store = createUiStore(bridge);
    expect(store.getState().builtInApps).toEqual([]);
    await store.getState().actions.loadSettings();
    expect(store.getState().builtInApps).toEqual([fixture]);

    const app: AppEntry = { id: 'a.b', name: 'AB', url: 'https://ab.example/', allowedOrigins: ['https://ab.example'] };
    await expect(store.getState().actions.checkApp(app)).resolves.toEqual({
      ok: true,
      check: { url: 'https://ab.example/', state: 'unsafe', reason: 'the page lacks <meta name="cutright-capture-state" content="safe">' },
    });
    expect(bridge.checked).toEqual([app]);
    bridge.fail.checkApp = 'the host is shutting down';
    await expect(store.getState().actions.checkApp(app)).resolves.toEqual({ ok: false, message: 'the host is shutting down' });
  });

  it('the bundle tools say their outcome in words per bundle; delete takes the bundle off the list', async () => {
    const bridge = new MemoryBridge();
    bridge.bundles.push(summary('b2'));
    const store = createUiStore(bridge);
    const { actions } = store.getState();
    await actions.loadBundles();
    await actions.verifyBundle('b1');
    expect(store.getState().bundleTasks['b1']?.outcome).toEqual({ ok: true, text: expect.stringMatching(/^Verified: sealed and intact, signed by sha256:ab\. 1 caption was edited afterwards/) });
    await actions.verifyBundle('b2');
    expect(store.getState().bundleTasks['b2']?.outcome).toEqual({ ok: false, text: 'Does not verify: events.ndjson: content changed' });
    await actions.exportBundle('b1', 'html');
    expect(store.getState().bundleTasks['b1']).toMatchObject({ busy: null, path: '/data/exports/b1.html', outcome: { ok: true, text: 'Exported as HTML (20 KB) to /data/exports/b1.html' } });
    await actions.revealBundle('b1');
    expect(store.getState().bundleTasks['b1']?.outcome).toEqual({ ok: false, text: 'Could not open the folder (xdg-open is not installed here); it is /data/bundles/b1' });
    await actions.copyBundlePath('b1');
    expect(bridge.copied).toEqual(['/data/bundles/b1']);
    bridge.fail['exportBundle'] = 'disk full';
    await actions.exportBundle('b2', 'html');
    expect(store.getState().bundleTasks['b2']?.outcome).toEqual({ ok: false, text: 'Could not export: disk full' });
    await actions.openBundle('b2');
    await actions.deleteBundle('b2');
    expect(store.getState().bundle).toBeNull();
    expect(store.getState().bundles?.map((b) => b.bundleId)).toEqual(['b1']);
    store.dispose();
  });

  it('an edited caption shows in the open bundle at once', async () => {
    const bridge = new MemoryBridge();
    const store = createUiStore(bridge);
    const { actions } = store.getState();
    await actions.openBundle('b1');
    expect(await actions.editCaption('b1', 'r1', 'Send it with **Submit**')).toEqual({ ok: true });
    expect(store.getState().bundle?.detail?.steps[0]).toMatchObject({ caption: 'Send it with **Submit**', captionEditedAt: 9 });
    bridge.fail['editCaption'] = 'caption not saved: a caption cannot be empty';
    expect(await actions.editCaption('b1', 'r1', ' ')).toEqual({ ok: false, message: 'caption not saved: a caption cannot be empty' });
    store.dispose();
  });
});
