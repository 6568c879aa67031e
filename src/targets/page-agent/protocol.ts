// What the driver and the page agent say to each other: the shapes of the agent's answers and
// the constants both sides use. Plain data, no DOM: the driver (Node) and the agent (the page)
// both import it, and the agent's bundle inlines it.

/** Bits of the ops mask the page returns. */
export const OP_CLICK = 1;
export const OP_TYPE = 2;
export const OP_PRESS = 4;

/** The global under which the installed agent lives in the isolated world. */
export const AGENT_GLOBAL = '__cutrightAgent';

/**
 * The CDP binding (`Runtime.addBinding`) through which the agent reports a change of the
 * page's capture declaration at once. It exists only in the agent's isolated world.
 */
export const CAPTURE_BINDING = '__cutrightCaptureChanged';

/** What the page reports for the capture check. */
export interface PageCapture {
  origin: string;
  declared: string[];
}

/**
 * A capture report of a watched document (CAPTURE_BINDING's payload, as JSON, and
 * watchCapture's answer). `seq` counts up per world, so a late answer never overrides a newer one.
 */
export interface CaptureReport {
  worldId: string;
  seq: number;
  capture: PageCapture;
}

/** One listed element: [nodeKey, role, label, ops mask, secure (1/0)]. */
export type PageElement = [string, string, string, number, number];

/** A cross-origin iframe the walk could not enter: [its nodeKey, elements listed before it]. */
export type FrameHole = [string, number];

export interface PageSnapshot {
  capture: PageCapture;
  /** Null when the page is not safe (nothing walked). */
  elements: PageElement[] | null;
  truncated: boolean;
  /** Cross-origin iframes met before the walk stopped, in document order. */
  frames: FrameHole[];
}

/** The point, in the parent's top-frame viewport, that a point of a child frame maps to. */
export interface FramePoint {
  status: 'ok' | 'gone' | 'hidden' | 'offscreen' | 'covered';
  x?: number;
  y?: number;
  coveredBy?: string;
  scrolled?: boolean;
}

export type PrepareStatus =
  | 'unsafe'
  | 'gone'
  | 'changed'
  | 'secure'
  | 'hidden'
  | 'disabled'
  | 'op'
  | 'unfocusable'
  | 'offscreen'
  | 'covered'
  | 'ok';

export interface PagePrepare {
  capture: PageCapture;
  status: PrepareStatus;
  role?: string | null;
  label?: string;
  ops?: number;
  /** Viewport point (CSS pixels of the top frame) to click, for click and type. */
  x?: number;
  y?: number;
  /** The element was scrolled into view to get that point. */
  scrolled?: boolean;
  /** What covers the element, for `covered`. */
  coveredBy?: string;
}

/** The agent's methods, as the driver calls them by name (`Runtime.callFunctionOn`). */
export interface PageAgent {
  worldId: string;
  capture(): PageCapture;
  /** `framed`: a cross-origin child frame, listed when its own origin is allowed. */
  snapshot(allowed: string[], limit: number, framed?: boolean): PageSnapshot;
  /** The element itself (the driver asks for an object handle, not a value). */
  element(key: string): object | null;
  settle(): Promise<boolean>;
  framePoint(key: string, x: number, y: number): FramePoint;
  prepare(allowed: string[], key: string, expectRole: string, expectLabel: string, op: string, framed: boolean): PagePrepare;
  caretToEnd(key: string, framed: boolean): boolean;
  /** Starts reporting declaration changes through CAPTURE_BINDING; returns the capture now. */
  watchCapture(): CaptureReport;
}

/** The agent's method names the driver may call. */
export type PageAgentMethod = Exclude<keyof PageAgent, 'worldId'>;
