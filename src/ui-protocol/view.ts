// The host's state as the UI shows it: a plain-JSON projection, sent whole on every change.
// The renderer never runs the session machine; it shows this and sends answers back.
import * as v from 'valibot';

const text = v.string();
const time = v.number();

/**
 * The process that asked, as the OS reports it from the socket (not as the agent says): what
 * a local process cannot lie about. Parts that could not be read are null, `unknown` says why.
 */
export const RequesterViewSchema = v.object({
  pid: v.nullable(v.number()),
  executable: v.nullable(text),
  /** Its user's name when it is not the person's own; null when it is the same user (or unknown). */
  otherUser: v.nullable(text),
  /** Other processes sharing the same connection (inherited across fork). */
  sharedWith: v.number(),
  unknown: v.nullable(text),
});
export type RequesterView = v.InferOutput<typeof RequesterViewSchema>;

/** The consent question the person is being asked now. */
export const ConsentPromptSchema = v.object({
  consentId: text,
  appId: text,
  appName: text,
  /** The page the session will open. */
  appUrl: text,
  /** The name the agent gave for itself: a claim, not a verified identity. */
  agentName: text,
  requester: RequesterViewSchema,
  requestedAt: time,
});
export type ConsentPrompt = v.InferOutput<typeof ConsentPromptSchema>;

/** Where a live session is: its target being opened (`arming`), or ready for the agent (`armed`). */
const LIVE_PHASES = ['arming', 'armed'] as const;

/** Whether the session's target is being captured: `paused` while it is not capture-safe. */
export const CAPTURE_STATES = ['starting', 'live', 'paused', 'stopped'] as const;
export const CaptureViewSchema = v.object({
  state: v.picklist(CAPTURE_STATES),
  /** Why it is paused (`not capture-safe`), when it is. */
  reason: v.optional(text),
});
export type CaptureView = v.InferOutput<typeof CaptureViewSchema>;

/** A session from consent until it ends, as the kill control shows it. */
export const LiveSessionSchema = v.object({
  sessionId: text,
  appId: text,
  appName: text,
  agentName: text,
  phase: v.picklist(LIVE_PHASES),
  startedAt: time,
  steps: v.number(),
  /**
   * Why its target cannot be opened (a missing permission, no browser), while it waits for Stop
   * or the agent's end; null otherwise. Nothing runs meanwhile, and it ends `killed`.
   */
  cannotOpen: v.nullable(text),
  /** The live view's state. */
  capture: v.optional(CaptureViewSchema),
  /** The latest step that ran, for the live view's caption. */
  lastStep: v.optional(v.nullable(v.object({ index: v.number(), op: text, role: text, label: text }))),
  /** Where the agent last clicked, in the page's CSS pixels (LiveFrameHeader.viewport). */
  lastClick: v.optional(v.nullable(v.object({ x: v.number(), y: v.number(), at: time }))),
});
export type LiveSession = v.InferOutput<typeof LiveSessionSchema>;

/**
 * A session that ended by a failure the person should be told of: its bundle could not be
 * made (Allow gave no session), its target could not be opened, its record could not be
 * written, its page crashed, or its bundle could not be sealed.
 */
export const SessionProblemSchema = v.object({
  sessionId: text,
  appName: text,
  agentName: text,
  /** The kill reason, as in the bundle: e.g. `disk full`, `target could not open`. */
  reason: text,
  /** What went wrong and what to do about it, in words. */
  message: text,
  at: time,
});
export type SessionProblem = v.InferOutput<typeof SessionProblemSchema>;

/** An export of a bundle the host is making now, and how far it is (for the UI's progress bar). */
export const ExportProgressSchema = v.object({
  bundleId: text,
  format: text,
  /** The part done, 0 to 1. */
  done: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
});
export type ExportProgress = v.InferOutput<typeof ExportProgressSchema>;

export const HostViewSchema = v.object({
  demoMode: v.boolean(),
  /** The one open consent dialog, or null. */
  consent: v.nullable(ConsentPromptSchema),
  /** Requests waiting for their turn behind the open dialog. */
  consentQueue: v.number(),
  /** Sessions that are live (arming or armed). */
  live: v.array(LiveSessionSchema),
  /** Bumped whenever a bundle is created or sealed, so views know to reload the list. */
  bundlesVersion: v.number(),
  /** The latest sessions that ended by a failure (newest first, at most 5). */
  problems: v.array(SessionProblemSchema),
  /** Exports running now (a video or a GIF takes a while), oldest first. */
  exports: v.optional(v.array(ExportProgressSchema)),
});
/** The host's state as the UI shows it. Sent whole on every change. */
export type HostView = v.InferOutput<typeof HostViewSchema>;
