// The composition root: a registry of sessions, the consent queue and the UI's view, serving
// the agent demo service through one handler per method (./methods/) and the UI through the
// HostBridge (./ui-bridge.ts). Both shells (Electron and web) call only this.
import { dirname, join } from 'node:path';
import type { BundleStore } from '../bundle/index.js';
import { originOf } from '../policy/origins.js';
import type { DemoHandler } from '../service/server.js';
import type { KillReason } from '../session/machine.js';
import { SessionRegistry } from '../session/registry.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { TargetLauncher } from '../targets/types.js';
import type { AppEntry, Settings } from '../settings/settings.js';
import type { HostBridge, HostView } from '../ui-protocol/index.js';
import { checkApp } from './app-check.js';
import type { OpenRenderTarget } from '../export/render-page.js';
import { bundleActions, systemRevealFolder, type RevealFolder } from './bundle-actions.js';
import { LiveFrames } from './live-frames.js';
import { ConsentQueue, DEFAULT_CONSENT_BOUNDS, type ConsentBounds } from './consent-queue.js';
import { serveMethods } from './methods/index.js';
import { SessionBook } from './session-book.js';
import type { DriverFactory } from './session.js';
import { createUiBridge } from './ui-bridge.js';
import { projectView, ViewPublisher } from './view.js';

export type { DriverFactory } from './session.js';

export interface HostOptions {
  settings: SettingsStore;
  bundles: BundleStore;
  launcher: TargetLauncher;
  createDriver: DriverFactory;
  /** The fixture app's entry when fixtures are on (HOST-SPEC section 6), else undefined. */
  fixture?: AppEntry;
  /** Who answers consent here, for the bundle's consent record (e.g. "local user in the web shell"). */
  answeredBy: string;
  now?: () => number;
  log?: (message: string) => void;
  /** How long a consent request may wait for an answer, queue time included. Default 600 s (the contract's demo.request timeout). */
  consentTimeoutMs?: number;
  /** How many consent requests may wait, per connection and in all. */
  consentBounds?: ConsentBounds;
  /** How long shutdown waits for calls in flight to be answered before the socket closes. Default 5 s. */
  shutdownGraceMs?: number;
  /** Where the UI's exports are written. Default: `exports/` beside the bundles folder. */
  exportsDir?: string;
  /**
   * Opens the page a video or GIF export is drawn and encoded in. Default: a hidden blank page
   * of the launcher (the web shell's Chromium); Electron opens a hidden window of its own.
   */
  openRenderTarget?: OpenRenderTarget;
  /** Shows a folder in the file manager (Electron: the shell's; default: the platform's opener). */
  revealFolder?: RevealFolder;
  /** Records the target continuously and shows it live. Default true; off only to measure what it costs. */
  recording?: boolean;
}

export interface Host extends DemoHandler {
  readonly bridge: HostBridge;
  /** Origins that are the host itself (its UI pages): refused as targets. */
  setOwnOrigins(origins: string[]): void;
  /** The kill control for one session. Resolves when its bundle is sealed. */
  kill(sessionId: string, reason?: KillReason): Promise<void>;
  /** Stop all: kills every live session; resolves with how many there were, once all are sealed. */
  killAll(reason?: KillReason): Promise<number>;
  /** Ends every request waiting for consent (the dialog's "Deny all waiting"); returns how many. */
  denyAllWaiting(): number;
  /** Ends every live session as killed (host shutdown) and seals every bundle. */
  shutdown(): Promise<void>;
  /** The live view, for shells that show it without a bridge. */
  view(): HostView;
}

/** Waits for `work`, but no longer than `ms`. */
async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work.then(() => undefined, () => undefined), timeout]);
  clearTimeout(timer);
}

export function createHost(options: HostOptions): Host {
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const registry = new SessionRegistry();
  let ownOrigins: string[] = [];
  let shuttingDown = false;

  const publisher: ViewPublisher = new ViewPublisher(view, log);
  const liveFrames = new LiveFrames(log);
  const consent = new ConsentQueue(options.consentBounds ?? DEFAULT_CONSENT_BOUNDS, () => publisher.changed());
  const sessions = new SessionBook(registry, consent, {
    bundles: options.bundles,
    launcher: options.launcher,
    createDriver: options.createDriver,
    registry,
    answeredBy: options.answeredBy,
    now,
    log,
    capture: {
      ...(options.recording !== undefined ? { recording: options.recording } : {}),
      limits: () => options.settings.settings.recording,
      frames: liveFrames,
    },
    ...(options.consentTimeoutMs !== undefined ? { consentTimeoutMs: options.consentTimeoutMs } : {}),
    changed: () => publisher.changed(),
    // A step or its picture is in the bundle: the list's counts and an open bundle view follow.
    bundleGrew: () => sessions.bundlesChanged(),
  }, publisher);

  function view(): HostView {
    return projectView({
      demoMode: options.settings.settings.demoMode,
      sessions: sessions.all(),
      showing: consent.showing,
      behind: consent.behind,
      bundlesVersion: sessions.bundlesVersion,
      problems: sessions.problems,
      exports: actions.exporting(),
    });
  }

  function catalog(): AppEntry[] {
    const apps = options.settings.settings.apps;
    return options.fixture ? [options.fixture, ...apps] : apps;
  }

  function isHostItself(app: AppEntry): boolean {
    const origins = [originOf(app.url), ...app.allowedOrigins];
    return origins.some((origin) => origin !== null && ownOrigins.includes(origin));
  }

  const handle = serveMethods({
    get settings() {
      return options.settings.settings;
    },
    get shuttingDown() {
      return shuttingDown;
    },
    catalog,
    isHostItself,
    ask: (app, agentName, requester, call) => sessions.ask(app, agentName, requester, call),
    sessionFor: (token) => sessions.byToken(token),
  });
  async function saveSettings(value: unknown): Promise<Settings> {
    const saved = await options.settings.save(value);
    if (!saved.demoMode) {
      // Demo mode off: waiting requests are refused, live sessions end killed.
      consent.denyAll('demo mode off');
      await sessions.killAll('demo mode off');
    }
    publisher.changed();
    return saved;
  }

  const actions = bundleActions({
    bundles: options.bundles,
    exportsDir: options.exportsDir ?? join(dirname(options.bundles.bundlesDir), 'exports'),
    revealFolder: options.revealFolder ?? systemRevealFolder,
    changed: () => sessions.bundlesChanged(),
    openRenderTarget: options.openRenderTarget ?? (() => options.launcher.open('about:blank', { hidden: true })),
    progressed: () => publisher.changed(),
  });

  const bridge = createUiBridge({
    settings: options.settings,
    bundles: options.bundles,
    bundleActions: actions,
    sessions,
    consent,
    publisher,
    liveFrames,
    saveSettings,
    builtInApps: () => (options.fixture ? [options.fixture] : []),
    checkApp: (app) => checkApp(app, { launcher: options.launcher, createDriver: options.createDriver, isHostItself }),
  });

  return {
    handle,
    bridge,
    view,
    kill: (sessionId, reason = 'kill control') => sessions.kill(sessionId, reason),
    killAll: (reason = 'kill control') => sessions.killAll(reason),
    denyAllWaiting: () => consent.denyAll('deny all waiting'),
    setOwnOrigins(origins) {
      ownOrigins = [...origins];
    },
    async shutdown() {
      shuttingDown = true;
      consent.denyAll('host shutdown');
      const live = sessions.live();
      await sessions.killAll('host shutdown');
      // Calls in flight were answered session_killed; a receipt already being written when the
      // kill came still stands, and its answer goes out before the socket closes.
      await settleWithin(Promise.all(live.map((session) => session.idle())), options.shutdownGraceMs ?? 5000);
      // The last view (nothing waiting, nothing live) goes out now, not after the shells stopped listening.
      publisher.publish();
      await options.launcher.close().catch((error: unknown) => log(`closing the browser failed: ${String(error)}`));
    },
  };
}
