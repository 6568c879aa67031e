// The UI protocol: what the host and its UI say to each other, in both shells. The renderer
// imports only this module (and the contract's types); see docs/architecture.md, "The bridge".
import type { BridgeCalls } from './calls.js';
import type { LiveFrame } from './live-frames.js';
import type { HostView } from './view.js';

export * from './calls.js';
export * from './view.js';
export * from './transports.js';
export * from './live-frames.js';
export { picturePath, pictureOfPath } from './pictures.js';
export { parseOrThrow } from './issues.js';
export type { BundleDetail, BundleStep, BundleSummary } from '../bundle/views.js';
export {
  HIGHLIGHT_COLOUR, MAX_CAPTION_LENGTH, captionParts, captionProblem, captionText, focusArea, highlightStroke, scalePlace,
  type CaptionPart, type PixelBox, type StepPlace,
} from '../bundle/presentation.js';
export { requesterText } from '../bundle/views.js';
export {
  buildTimeline, clampTime, formatClock, frameAt, lineAt, lineIndexAt, stepIndexAt, stepTimes,
  type ShownLine, type Timeline, type TimelineLine,
} from '../bundle/timeline.js';
export type { AppEntry, Settings } from '../settings/settings.js';
export type { EndState } from '../contract/end-state.js';

/** What the UI may ask of the host: every call of the table, plus the view's subscription. */
export interface HostBridge extends BridgeCalls {
  /** Calls `listener` with the current view at once and on every change; returns its disposer. */
  subscribe(listener: (view: HostView) => void): () => void;
  /**
   * Calls `listener` with every capture-safe frame of every live session, starting with each
   * session's latest one; returns its disposer. A transport drops frames a slow UI cannot take.
   */
  subscribeFrames(listener: (frame: LiveFrame) => void): () => void;
}
