// The UI's state: a mirror of the host's view (fed by the bridge, never written back) plus what
// the UI loaded through the bridge (bundles, one bundle, settings) and the state of its calls.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppCheckResult, AppEntry, BundleDetail, BundleSummary, ExportFormat, HostBridge, HostView, Settings } from '../../src/ui-protocol/index.js';
import { bundleTools } from './bundle-tools.js';
import { messageOf } from './format.js';
import { sessionActions } from './session-actions.js';
import type { ConnectionStatus, UiBridge } from './bridge/types.js';

/** A bridge the store can use: any HostBridge; connection status when the transport has one; the clipboard where the page has one. */
export type StoreBridge = HostBridge & Partial<Pick<UiBridge, 'onConnection'>> & { copyText?(text: string): Promise<void> };

export type SaveResult = { ok: true; settings: Settings } | { ok: false; message: string };
export type CheckResult = { ok: true; check: AppCheckResult } | { ok: false; message: string };

export interface UiActions {
  /** Answers the open consent dialog (the one in view.consent). */
  allow(): Promise<void>;
  deny(): Promise<void>;
  /** The kill control: ends the live session at once. */
  kill(sessionId: string): Promise<void>;
  /** Stop all (and the kill shortcut): ends every live session at once, in one call to the host. */
  killAll(): Promise<void>;
  /** Deny all waiting: refuses the request shown and every one behind it, in one call. */
  denyAllWaiting(): Promise<void>;
  /** Loads the bundle list; it then reloads by itself whenever view.bundlesVersion changes. */
  loadBundles(): Promise<void>;
  /** Loads one bundle into `bundle` (reloaded with the list while it is open). */
  openBundle(bundleId: string): Promise<void>;
  closeBundle(): void;
  /** Sets one step's caption (null: back to the original); on refusal `message` says why. */
  editCaption(bundleId: string, receiptId: string, caption: string | null): Promise<{ ok: true } | { ok: false; message: string }>;
  /** The bundle tools: each shows its outcome in `bundleTasks[bundleId]`. */
  verifyBundle(bundleId: string): Promise<void>;
  exportBundle(bundleId: string, format: ExportFormat): Promise<void>;
  revealBundle(bundleId: string): Promise<void>;
  copyBundlePath(bundleId: string): Promise<void>;
  /** Deletes the bundle from disk (the view asked the person first). */
  deleteBundle(bundleId: string): Promise<void>;
  loadSettings(): Promise<void>;
  /** Saves settings; on refusal `message` is the host's error message. */
  saveSettings(settings: Settings): Promise<SaveResult>;
  /** "Check this app": whether a session of `app` could be recorded, and why not; `message` when the check itself failed. */
  checkApp(app: AppEntry): Promise<CheckResult>;
  dismissNotice(): void;
  /** Hides a session problem (view.problems) from this page. */
  dismissProblem(sessionId: string): void;
}

export interface OpenBundle {
  bundleId: string;
  detail: BundleDetail | null;
  error: string | null;
}

/** What a bundle tool is doing or last did, for the person to read. */
export interface BundleTask {
  /** The tool running now (its buttons are disabled), or null. */
  busy: string | null;
  /** The last outcome in words; `ok` false for a failure or a bundle that does not verify. */
  outcome: { ok: boolean; text: string } | null;
  /** The path of the last export or lookup, to copy. */
  path: string | null;
}

export interface UiState {
  connection: ConnectionStatus;
  /** The host's view, as last sent; null until the first one arrives. */
  view: HostView | null;
  /** null until loaded once. */
  bundles: BundleSummary[] | null;
  bundlesError: string | null;
  bundle: OpenBundle | null;
  bundleTasks: Record<string, BundleTask>;
  settings: Settings | null;
  settingsError: string | null;
  /** The apps the host adds to the catalog itself (the fixture), loaded with the settings. */
  builtInApps: AppEntry[];
  /** The consent being answered (buttons are disabled meanwhile), or null. */
  answering: string | null;
  /** Sessions whose kill was sent and not yet answered. */
  stopping: string[];
  /** The last failed action, in words for the person; null when there is none. */
  notice: string | null;
  /** Sessions whose problem the person dismissed on this page. */
  dismissedProblems: string[];
  actions: UiActions;
}

export type UiStore = StoreApi<UiState> & { dispose(): void };

/** How the store's parts (bundle-tools.ts, session-actions.ts) read and write its state. */
export type StoreSet = (partial: Partial<UiState>) => void;
export type StoreGet = () => UiState;

export function createUiStore(bridge: StoreBridge): UiStore {
  // Replies can come back out of order: only the latest request of each kind may write.
  let bundlesRequest = 0;
  let bundleRequest = 0;
  let settingsRequest = 0;

  const store = createStore<UiState>()((set, get) => {
    const loadBundle = async (bundleId: string): Promise<void> => {
      const request = ++bundleRequest;
      try {
        const detail = await bridge.getBundle(bundleId);
        if (request === bundleRequest && get().bundle?.bundleId === bundleId) set({ bundle: { bundleId, detail, error: null } });
      } catch (error) {
        if (request === bundleRequest && get().bundle?.bundleId === bundleId) {
          set({ bundle: { bundleId, detail: get().bundle?.detail ?? null, error: messageOf(error) } });
        }
      }
    };

    const actions: UiActions = {
      ...bundleTools(bridge, set, get, (bundleId, detail) => {
        if (get().bundle?.bundleId === bundleId) set({ bundle: { bundleId, detail, error: null } });
      }),
      ...sessionActions(bridge, set, get),
      async loadBundles() {
        const request = ++bundlesRequest;
        try {
          const bundles = await bridge.listBundles();
          if (request === bundlesRequest) set({ bundles, bundlesError: null });
        } catch (error) {
          if (request === bundlesRequest) set({ bundlesError: messageOf(error) });
        }
      },
      async openBundle(bundleId) {
        if (get().bundle?.bundleId !== bundleId) set({ bundle: { bundleId, detail: null, error: null } });
        await loadBundle(bundleId);
      },
      closeBundle() {
        bundleRequest++;
        set({ bundle: null });
      },
      async loadSettings() {
        const request = ++settingsRequest;
        try {
          const [settings, builtInApps] = await Promise.all([bridge.getSettings(), bridge.builtInApps()]);
          if (request === settingsRequest) set({ settings, builtInApps, settingsError: null });
        } catch (error) {
          if (request === settingsRequest) set({ settingsError: messageOf(error) });
        }
      },
      async saveSettings(settings) {
        const request = ++settingsRequest;
        try {
          const saved = await bridge.saveSettings(settings);
          if (request === settingsRequest) set({ settings: saved, settingsError: null });
          return { ok: true, settings: saved };
        } catch (error) {
          return { ok: false, message: messageOf(error) };
        }
      },
      async checkApp(app) {
        try {
          return { ok: true, check: await bridge.checkApp(app) };
        } catch (error) {
          return { ok: false, message: messageOf(error) };
        }
      },
      dismissNotice() {
        set({ notice: null });
      },
      dismissProblem(sessionId) {
        if (!get().dismissedProblems.includes(sessionId)) set({ dismissedProblems: [...get().dismissedProblems, sessionId] });
      },
    };

    return {
      connection: 'connecting',
      view: null,
      bundles: null,
      bundlesError: null,
      bundle: null,
      bundleTasks: {},
      settings: null,
      settingsError: null,
      builtInApps: [],
      answering: null,
      stopping: [],
      notice: null,
      dismissedProblems: [],
      actions,
    };
  });

  const stopView = bridge.subscribe((view) => {
    const before = store.getState().view;
    store.setState({ view, ...(bridge.onConnection ? {} : { connection: 'connected' as const }) });
    // A bundle was created or sealed: refresh what is on screen (only what was loaded before).
    if (before && before.bundlesVersion !== view.bundlesVersion) {
      const { bundles, bundlesError, bundle, actions } = store.getState();
      if (bundles !== null || bundlesError !== null) void actions.loadBundles();
      if (bundle) void actions.openBundle(bundle.bundleId);
    }
  });
  const stopConnection = bridge.onConnection?.((connection) => store.setState({ connection })) ?? (() => {});

  return Object.assign(store, {
    dispose() {
      stopView();
      stopConnection();
    },
  });
}
