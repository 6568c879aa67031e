// The seams between the host and a target app. The same driver code runs in both shells:
// the web shell hands it a CDP transport onto a page of a Chromium it launched, the Electron
// shell one onto a BrowserWindow's `webContents.debugger`.
import type { ElementOp } from '../contract/types.js';

/** A disposer: call it to remove what was added. */
export type Dispose = () => void;

/**
 * One Chrome DevTools Protocol connection to one page. `send` resolves with the command's
 * result or rejects with the protocol's error; `on` listens to an event and returns its
 * disposer. Implementations: Playwright's CDPSession (web shell), `webContents.debugger` (Electron).
 */
export interface CdpTransport {
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  on(event: string, listener: (params: unknown) => void): Dispose;
  /** Resolves once the connection is gone (page closed, crashed or detached). */
  readonly closed: Promise<TargetCloseReason>;
  /**
   * Optional: a transport onto the child session `sessionId` of this connection (CDP flat
   * mode), for out-of-process iframes. Without it the driver reaches child targets in non-flat
   * mode, through `Target.sendMessageToTarget` on this transport.
   */
  child?(sessionId: string): CdpTransport;
}

export type TargetCloseReason = 'closed' | 'crashed' | 'detached';

/** What the driver reports about whether the target may be captured (contract: capture-safe rule). */
export type CaptureState = 'safe' | 'unsafe' | 'unknown';

/** The capture state, with why it is not safe (a sentence a person can act on). */
export type CaptureStatus = { state: 'safe'; reason?: undefined } | { state: 'unsafe' | 'unknown'; reason: string };

/** Hears the capture state: the current one once known, then every change. */
export type CaptureListener = (status: CaptureStatus) => void;

/** A control of the target as the driver sees it; the host turns `nodeKey` into a session ref. */
export interface DriverElement {
  /** Driver-internal identity of the DOM node, stable while the node lives. Never sent to the agent. */
  nodeKey: string;
  role: string;
  label: string;
  ops: ElementOp[];
  /** A secure or credential field (password, one-time code, card data): never typed into or read. */
  secure: boolean;
}

export interface DriverSnapshot {
  captureState: CaptureState;
  /** Why the state is not safe: what the page lacks or what is wrong (in the capture_unsafe message). */
  captureReason?: string;
  elements: DriverElement[];
  /** True when the page had more controls than the snapshot cap and the list was cut. */
  truncated: boolean;
}

export interface ActInput {
  nodeKey: string;
  op: ElementOp;
  text?: string;
  key?: string;
}

/**
 * Where an act happened, in the pixels of the target's pictures (its viewport at the device's
 * scale, as screenshots and screencast frames are taken): the acted element's box (clipped to
 * the viewport), the point clicked (click and type; a press clicks nothing), the viewport's size.
 */
export interface ActGeometry {
  box: { x: number; y: number; width: number; height: number };
  point?: { x: number; y: number };
  viewport: { width: number; height: number };
}

/** What the driver did, for the receipt. */
export interface ActOutcome {
  role: string;
  label: string;
  /** Absent when the page could not say (a press in a cross-origin frame). */
  geometry?: ActGeometry;
  /** Where the pointer pressed (a click, or the click that focused a field to type), in the top page's CSS pixels. */
  point?: { x: number; y: number };
}

/**
 * Drives one target page for one session. Every method fails with a ToolError carrying a
 * contract code when the cause is the agent's (`invalid_arguments` for a node that is gone or
 * changed, `target_blocked` for a secure field) and with a plain Error otherwise.
 */
export interface TargetDriver {
  snapshot(): Promise<DriverSnapshot>;
  /** The current capture state, cheaply (checked before every act and every batch step). */
  captureState(): Promise<CaptureStatus>;
  /**
   * Watches the capture state: `listener` hears the current state once it is known, then each
   * change as it happens (the page's declaration edited, added or removed, a new document, a
   * frame attached or detached, the target gone), never the same state twice in a row. After
   * the target is gone or the driver closed it hears `unknown` once, and no more. Returns the
   * function that stops this listener.
   */
  watchCaptureState(listener: CaptureListener): Dispose;
  /** Re-checks that `nodeKey` is still the node with this role and label, then acts on it. */
  act(input: ActInput, expect: { role: string; label: string }, signal?: AbortSignal): Promise<ActOutcome>;
  /** A picture of the target as it is now. */
  screenshot(): Promise<{ mime: string; data: Buffer }>;
  /** Resolves when the target goes away by itself. */
  readonly closed: Promise<TargetCloseReason>;
  /** Detaches and closes the target. Idempotent. */
  close(): Promise<void>;
}

/** How a target is opened. */
export interface OpenOptions {
  /**
   * Nobody is to see the page (the settings' "Check this app"): Electron keeps its window
   * hidden. The web shell's browser is headless either way.
   */
  hidden?: boolean;
}

/** Opens targets for sessions; one per shell. */
export interface TargetLauncher {
  /** Opens `url` in a fresh page and returns its CDP transport plus a way to close that page. */
  open(url: string, options?: OpenOptions): Promise<OpenedTarget>;
  /** Closes everything the launcher started. */
  close(): Promise<void>;
}

export interface OpenedTarget {
  transport: CdpTransport;
  close(): Promise<void>;
}
