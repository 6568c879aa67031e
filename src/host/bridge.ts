// The one interface between the host and its UI. The renderer imports only this file (and the
// contract's types); the Electron preload and the web shell's WebSocket both implement it.
// Everything crossing it is plain JSON: the renderer shows a projection of the host's state,
// it never runs the session machine.

export type SessionPhase = 'arming' | 'armed' | 'ended' | 'killed';

/** The consent question the person is being asked now. */
export interface ConsentPrompt {
  consentId: string;
  appId: string;
  appName: string;
  /** The name the agent gave for itself: a claim, not a verified identity. */
  agentName: string;
  requestedAt: number;
}

/** Whether the session's target is being captured: `paused` while it is not capture-safe. */
export interface CaptureView {
  state: 'starting' | 'live' | 'paused' | 'stopped';
  /** Why it is paused (`not capture-safe`), when it is. */
  reason?: string;
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
  /** The live view's state; absent until the session is armed. */
  capture?: CaptureView;
  /** The latest step that ran, for the live view's caption. */
  lastStep?: { index: number; op: string; role: string; label: string } | null;
  /** Where the agent last clicked, in the page's CSS pixels (LiveFrameHeader.viewport). */
  lastClick?: { x: number; y: number; at: number } | null;
}

/**
 * One frame of a live session's target, as the live view gets it. In the web shell it is one
 * binary WebSocket message: a 4-byte big-endian length, this header as UTF-8 JSON, then the
 * JPEG's bytes. In Electron it is one IPC message carrying the header and the bytes.
 */
export interface LiveFrameHeader {
  type: 'frame';
  sessionId: string;
  /** 1, 2, 3, ... within the session. */
  seq: number;
  /** When the target painted it (ms since the epoch). */
  at: number;
  width: number;
  height: number;
  /** The page's viewport in CSS pixels: click points are in these. */
  viewport: { width: number; height: number };
}

export interface LiveFrame extends LiveFrameHeader {
  /** The JPEG. */
  data: Uint8Array;
}

/** Encodes a live frame as one binary message (see LiveFrameHeader). */
export function encodeLiveFrame(frame: LiveFrame): Uint8Array {
  const { data, ...header } = frame;
  const head = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(4 + head.length + data.length);
  new DataView(out.buffer).setUint32(0, head.length);
  out.set(head, 4);
  out.set(data, 4 + head.length);
  return out;
}

/** Decodes one binary message into a live frame, or throws a TypeError saying what is wrong. */
export function decodeLiveFrame(message: Uint8Array): LiveFrame {
  if (message.length < 4) throw new TypeError('live frame: shorter than its length prefix');
  const length = new DataView(message.buffer, message.byteOffset, message.byteLength).getUint32(0);
  if (4 + length > message.length) throw new TypeError('live frame: header runs past the message');
  const header = JSON.parse(new TextDecoder().decode(message.subarray(4, 4 + length))) as Partial<LiveFrameHeader>;
  if (header?.type !== 'frame' || typeof header.sessionId !== 'string' || typeof header.seq !== 'number' || typeof header.at !== 'number') {
    throw new TypeError('live frame: header is not {type: frame, sessionId, seq, at, ...}');
  }
  if (typeof header.width !== 'number' || typeof header.height !== 'number' || typeof header.viewport?.width !== 'number' || typeof header.viewport?.height !== 'number') {
    throw new TypeError('live frame: header has no width, height or viewport');
  }
  return { ...(header as LiveFrameHeader), data: message.subarray(4 + length) };
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
  /** Limits on what a session's recording may store; the defaults when absent. */
  recording?: { maxSessionBytes: number; maxBytesPerSecond: number };
}

export type ConsentAnswer = 'allow' | 'deny';

/** What the UI may ask of the host. Every method's arguments are checked by the host. */
export interface HostBridge {
  /** Calls `listener` with the current view at once and on every change; returns its disposer. */
  subscribe(listener: (view: HostView) => void): () => void;
  /**
   * Calls `listener` with every capture-safe frame of every live session, starting with each
   * session's latest one; returns its disposer. A transport drops frames a slow UI cannot take.
   */
  subscribeFrames(listener: (frame: LiveFrame) => void): () => void;
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
  /** Live frames (main and kill windows); the main process sends at most one a window until it is taken. */
  onFrame?(listener: (header: LiveFrameHeader, data: Uint8Array) => void): () => void;
  pictureBase: string;
}
