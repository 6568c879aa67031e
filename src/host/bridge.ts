// The one interface between the host and its UI. The renderer imports only this file (and the
// contract's types); the Electron preload and the web shell's WebSocket both implement it.
// Everything crossing it is plain JSON: the renderer shows a projection of the host's state,
// it never runs the session machine.

export type SessionPhase = 'arming' | 'armed' | 'ended' | 'killed';

/**
 * The process that asked, as the OS reports it from the socket (not as the agent says): what
 * a local process cannot lie about. Parts that could not be read are null, `unknown` says why.
 */
export interface RequesterView {
  pid: number | null;
  executable: string | null;
  /** Its user's name when it is not the person's own; null when it is the same user (or unknown). */
  otherUser: string | null;
  /** Other processes sharing the same connection (inherited across fork). */
  sharedWith: number;
  unknown: string | null;
}

/** The consent question the person is being asked now. */
export interface ConsentPrompt {
  consentId: string;
  appId: string;
  appName: string;
  /** The page the session will open. */
  appUrl: string;
  /** The name the agent gave for itself: a claim, not a verified identity. */
  agentName: string;
  requester: RequesterView;
  requestedAt: number;
}

/** A session from consent until it ends, as the kill control shows it. */
export interface LiveSession {
  sessionId: string;
  appId: string;
  appName: string;
  agentName: string;
  phase: SessionPhase;
  startedAt: number;
  steps: number;
}

/** The host's state as the UI shows it. Sent whole on every change. */
export interface HostView {
  demoMode: boolean;
  /** The one open consent dialog, or null. */
  consent: ConsentPrompt | null;
  /** Requests waiting for their turn behind the open dialog. */
  consentQueue: number;
  /** Sessions that are live (arming or armed). */
  live: LiveSession[];
  /** Bumped whenever a bundle is created or sealed, so views know to reload the list. */
  bundlesVersion: number;
}

export type BundleState = 'open' | 'complete' | 'killed';

export interface BundleSummary {
  bundleId: string;
  sessionId: string;
  appId: string;
  appName: string;
  agentName: string;
  state: BundleState;
  reason: string | null;
  startedAt: number;
  endedAt: number | null;
  steps: number;
}

export interface BundleStep {
  index: number;
  receiptId: string;
  at: number;
  op: string;
  ref: string;
  role: string;
  label: string;
  text?: string;
  key?: string;
  /** Path of the picture inside the bundle folder, or null when none was captured. */
  picture: string | null;
}

export interface BundleDetail {
  summary: BundleSummary;
  consent: { agentName: string; appId: string; appName: string; answer: 'allow'; answeredBy: string; requestedAt: number; answeredAt: number };
  steps: BundleStep[];
}

export interface AppEntry {
  id: string;
  name: string;
  url: string;
  allowedOrigins: string[];
}

export interface Settings {
  demoMode: boolean;
  apps: AppEntry[];
  deniedApps: string[];
}

export type ConsentAnswer = 'allow' | 'deny';

/** What the UI may ask of the host. Every method's arguments are checked by the host. */
export interface HostBridge {
  /** Calls `listener` with the current view at once and on every change; returns its disposer. */
  subscribe(listener: (view: HostView) => void): () => void;
  answerConsent(consentId: string, answer: ConsentAnswer): Promise<void>;
  /** The kill control: ends the session at once, sealing its bundle `killed`. */
  kill(sessionId: string): Promise<void>;
  listBundles(): Promise<BundleSummary[]>;
  getBundle(bundleId: string): Promise<BundleDetail>;
  /** A URL the UI can show a bundle's picture from. */
  pictureUrl(bundleId: string, picture: string): string;
  getSettings(): Promise<Settings>;
  saveSettings(settings: Settings): Promise<Settings>;
}

/** The bridge's calls by name, for the transports that carry them (WebSocket, Electron IPC). */
export const BRIDGE_CALLS = ['answerConsent', 'kill', 'listBundles', 'getBundle', 'getSettings', 'saveSettings'] as const;
export type BridgeCall = (typeof BRIDGE_CALLS)[number];

// ---- Transports of the bridge ----

/**
 * The web shell's WebSocket protocol. The page is served at `http://127.0.0.1:<port>/<secret>/`
 * and the socket is `ws://127.0.0.1:<port>/<secret>/bridge`; pictures are at
 * `<page>/bundles/<bundleId>/<picture>`. Every message is one JSON object.
 */
export type WebBridgeServerMessage =
  | { type: 'view'; view: HostView }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: { message: string } };

export type WebBridgeClientMessage = { type: 'call'; id: number; call: BridgeCall; args: unknown[] };

/**
 * What the Electron preload exposes as `window.cutright` (via contextBridge). The renderer
 * wraps it into a HostBridge; the main process checks every call's sender and arguments.
 */
export interface ElectronBridgeApi {
  call(call: BridgeCall, args: unknown[]): Promise<unknown>;
  onView(listener: (view: HostView) => void): () => void;
  pictureBase: string;
}
