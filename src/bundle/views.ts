// What the UI is shown of a bundle: its summary (the list) and its detail (one bundle's
// consent and steps). The bundle part owns these; the reader (read.ts) builds them from the
// events, and the UI protocol checks them with these schemas where they arrive. Browser-safe:
// the renderer bundles this file, so it imports nothing of Node.
import * as v from 'valibot';
import { END_STATES } from '../contract/end-state.js';

const text = v.string();
const time = v.number();

/** A bundle is `open` until its end record is written, then it has an EndState. */
const BUNDLE_STATES = ['open', ...END_STATES] as const;

export const BundleSummarySchema = v.object({
  bundleId: text,
  sessionId: text,
  appId: text,
  appName: text,
  agentName: text,
  state: v.picklist(BUNDLE_STATES),
  reason: v.nullable(text),
  startedAt: time,
  endedAt: v.nullable(time),
  steps: v.number(),
});
export type BundleSummary = v.InferOutput<typeof BundleSummarySchema>;

const pixels = v.pipe(v.number(), v.minValue(0));
const RectSchema = v.object({ x: pixels, y: pixels, width: pixels, height: pixels });

export const BundleStepSchema = v.object({
  index: v.number(),
  receiptId: text,
  at: time,
  op: text,
  ref: text,
  role: text,
  label: text,
  text: v.optional(text),
  key: v.optional(text),
  /** Path of the picture inside the bundle folder, or null when none was captured. */
  picture: v.nullable(text),
  /** Where the act happened, in picture pixels (absent in older bundles, and where the driver could not say). */
  box: v.optional(RectSchema),
  point: v.optional(v.object({ x: pixels, y: pixels })),
  viewport: v.optional(v.object({ width: pixels, height: pixels })),
  /** The caption shown: the person's edit when there is one, else `autoCaption`. `**…**` is bold. */
  caption: text,
  /** The caption written from the receipt. */
  autoCaption: text,
  /** When the person last edited this caption, or null when it is the original. */
  captionEditedAt: v.nullable(time),
});
export type BundleStep = v.InferOutput<typeof BundleStepSchema>;

export const BundleDetailSchema = v.object({
  summary: BundleSummarySchema,
  consent: v.object({
    agentName: text,
    appId: text,
    appName: text,
    answer: v.literal('allow'),
    answeredBy: text,
    requestedAt: time,
    answeredAt: time,
    /** The process that asked, as the OS reported it; null in bundles made before it was recorded. */
    requester: v.nullable(
      v.object({
        pid: v.nullable(v.number()),
        executable: v.nullable(text),
        otherUser: v.nullable(text),
        sharedWith: v.number(),
        unknown: v.nullable(text),
      }),
    ),
  }),
  steps: v.array(BundleStepSchema),
  /**
   * The person's edits (annotations.json beside the sealed record): how many captions, when
   * last; `problem` when the file is there but cannot be trusted (its edits are then not shown).
   */
  edits: v.nullable(v.object({ captions: v.number(), updatedAt: v.nullable(time), problem: v.nullable(text) })),
  /**
   * The recording, to play (recording/index.ndjson's lines without the chain; see bundle/timeline.ts):
   * only for a sealed bundle whose index is the one its record names; null otherwise (no player).
   */
  recording: v.nullable(
    v.object({
      lines: v.array(
        v.variant('type', [
          v.object({ type: v.literal('frame'), at: time, file: text, width: pixels, height: pixels }),
          v.object({ type: v.literal('gap'), at: time, reason: text }),
        ]),
      ),
    }),
  ),
});
export type BundleDetail = v.InferOutput<typeof BundleDetailSchema>;


export { requesterText } from './requester-text.js';
