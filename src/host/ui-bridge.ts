// The host's side of the UI bridge: each call of the bridge table (../ui-protocol/calls.ts)
// as what it does to the host's parts. The shells carry it (IPC in Electron, a WebSocket in
// the web shell); both check arguments and results against the table first.
import type { BundleStore } from '../bundle/index.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { AppEntry, Settings } from '../settings/settings.js';
import type { AppCheckResult, HostBridge } from '../ui-protocol/index.js';
import type { BundleActions } from './bundle-actions.js';
import type { ConsentQueue } from './consent-queue.js';
import type { LiveFrames } from './live-frames.js';
import type { SessionBook } from './session-book.js';
import type { ViewPublisher } from './view.js';

export interface UiBridgeParts {
  settings: SettingsStore;
  bundles: BundleStore;
  bundleActions: BundleActions;
  sessions: SessionBook;
  consent: ConsentQueue;
  publisher: ViewPublisher;
  liveFrames: LiveFrames;
  /** Saves the settings, ending what Demo mode off ends. */
  saveSettings(value: unknown): Promise<Settings>;
  builtInApps(): AppEntry[];
  checkApp(app: AppEntry): Promise<AppCheckResult>;
}

export function createUiBridge(parts: UiBridgeParts): HostBridge {
  const { settings, bundles, sessions, consent } = parts;
  return {
    ...parts.bundleActions,
    subscribe: (listener) => parts.publisher.subscribe(listener),
    subscribeFrames: (listener) => parts.liveFrames.subscribe(listener),
    async answerConsent(consentId, answer) {
      consent.answer(consentId, answer);
    },
    kill: (sessionId) => sessions.kill(sessionId, 'kill control'),
    killAll: () => sessions.killAll('kill control'),
    denyAllWaiting: async () => consent.denyAll('deny all waiting'),
    listBundles: () => bundles.list(),
    getBundle: (bundleId) => bundles.get(bundleId),
    async editCaption(bundleId, receiptId, caption) {
      const detail = await bundles.editCaption(bundleId, receiptId, caption);
      sessions.bundlesChanged();
      return detail;
    },
    getSettings: async () => settings.settings,
    saveSettings: (value) => parts.saveSettings(value),
    builtInApps: async () => parts.builtInApps(),
    checkApp: (app) => parts.checkApp(app),
  };
}
