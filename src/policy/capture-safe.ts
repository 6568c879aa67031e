// The capture-safe rule (contract: "A target that cannot report a capture-safe state is
// refused, never masked"). A target is `safe` only when all three hold:
//   (a) the driver is attached to it and its page answered the check in time (about 2 s);
//   (b) the top document's origin is one of the origins the session allows;
//   (c) the page declares `<meta name="cutright-capture-state" content="safe">`: every such
//       meta in the document has content exactly `safe` (case-sensitive, no trimming).
// Otherwise the state is:
//   - `unknown` when (a) fails, or when the page declares nothing or a value the rule does
//     not know (it cannot report a state);
//   - `unsafe` when the page is on an origin that is not allowed, or declares `unsafe`.
// The origin is checked before the declaration: an off-origin page's own claim is not trusted.
// Not safe means: no element is listed, nothing is acted on, no picture is taken.
import type { CaptureStatus } from '../targets/types.js';

/** The name of the meta element through which a target page declares its capture state. */
export const CAPTURE_STATE_META = 'cutright-capture-state';

/** The declaration a page needs, as it is written in the page (named in every reason). */
export const SAFE_DECLARATION = `<meta name="${CAPTURE_STATE_META}" content="safe">`;

/** What the driver observed about the target. */
export interface CaptureFacts {
  /** The driver holds a live connection to the target. */
  attached: boolean;
  /** The page answered the check in time; false when it timed out or failed. */
  answered: boolean;
  /** The top document's origin as the page reports it (`location.origin`), when answered. */
  origin?: string | null;
  /** Normalised origins (`scheme://host[:port]`) the session may capture. */
  allowedOrigins: readonly string[];
  /**
   * The declared states, one per `cutright-capture-state` meta in document order;
   * empty when the page has none.
   */
  declared?: readonly string[];
  /** Why the page did not answer, when it did not. */
  failure?: string;
}

/** The state and, when it is not safe, why: a sentence naming what the page lacks or what is wrong. */
export type CaptureDecision = CaptureStatus;

/** Applies the capture-safe rule to what the driver observed. Pure. */
export function decideCaptureState(facts: CaptureFacts): CaptureDecision {
  if (!facts.attached) return { state: 'unknown', reason: 'not attached to the target' };
  if (!facts.answered) {
    return { state: 'unknown', reason: `the page did not answer the capture check${facts.failure ? `: ${facts.failure}` : ''}` };
  }
  const origin = facts.origin ?? 'null';
  if (origin === 'null' || !facts.allowedOrigins.includes(origin)) {
    const allowed = facts.allowedOrigins.join(', ') || 'none';
    return { state: 'unsafe', reason: `the page is on ${origin}, which is not an allowed origin (allowed: ${allowed})` };
  }
  const declared = facts.declared ?? [];
  if (declared.length === 0) return { state: 'unknown', reason: `the page lacks ${SAFE_DECLARATION}` };
  if (declared.includes('unsafe')) {
    return { state: 'unsafe', reason: `the page declares its capture state "unsafe" (it needs ${SAFE_DECLARATION})` };
  }
  const other = declared.find((value) => value !== 'safe');
  if (other !== undefined) {
    return {
      state: 'unknown',
      reason: `the page declares an unrecognised capture state ${JSON.stringify(other)} (it needs ${SAFE_DECLARATION}, exactly, in every such meta)`,
    };
  }
  return { state: 'safe' };
}
