// The UI bridge's calls, declared once: each call's arguments (named, each with its schema),
// its result's schema, and the host windows allowed to make it. Everything else is derived
// from this table: the host's dispatcher (dispatch.ts), the renderer's proxy and result checks
// (renderer/src/bridge/), Electron's per-window allow lists (electron/ipc-channels.ts) and
// the three preloads built from one source (electron/preload/). Adding a call means one row
// here and its implementation in the host.
import * as v from 'valibot';
import { MAX_CAPTION_LENGTH } from '../bundle/presentation.js';
import { BundleDetailSchema, BundleSummarySchema } from '../bundle/views.js';
import { AppEntrySchema, SettingsSchema } from '../settings/settings.js';

/**
 * The host's windows in Electron: the main window, the small consent window and the kill
 * control. The web shell's one page holds every role.
 */
export const WINDOW_ROLES = ['main', 'consent', 'kill'] as const;
export type WindowRole = (typeof WINDOW_ROLES)[number];

export const CONSENT_ANSWERS = ['allow', 'deny'] as const;

/**
 * What a bundle can be exported as from the UI: the HTML page, the recording as a video (WebM
 * with VP9, MP4 with H.264), a GIF of its steps.
 */
export const EXPORT_FORMATS = ['html', 'webm', 'mp4', 'gif'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ConsentAnswer = (typeof CONSENT_ANSWERS)[number];

/** An id the host gave out (consent, session, bundle): short, non-empty text. */
const id = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'));

/** The result of a call that answers nothing: `undefined` in process, `null` over a transport. */
const nothing = v.pipe(
  v.nullish(v.never('must be nothing (null)')),
  v.transform((): void => undefined),
);

type ArgSpec = readonly [name: string, schema: v.GenericSchema];

interface CallSpec {
  /** The positional arguments, each with its name (for error messages) and schema. */
  readonly args: readonly ArgSpec[];
  readonly result: v.GenericSchema;
  /** The windows that may make this call (the main process and the preloads enforce it). */
  readonly roles: readonly WindowRole[];
}

export const BRIDGE_TABLE = {
  answerConsent: {
    args: [['consentId', id], ['answer', v.picklist(CONSENT_ANSWERS, 'must be "allow" or "deny"')]],
    result: nothing,
    roles: ['main', 'consent'],
  },
  /** The kill control: ends the session at once, sealing its bundle `killed`. */
  kill: { args: [['sessionId', id]], result: nothing, roles: ['main', 'kill'] },
  /** Stop all: ends every live session at once, each bundle sealed `killed`; answers how many. */
  killAll: { args: [], result: v.number(), roles: ['main', 'kill'] },
  /** Refuses every request waiting for consent (the one shown and those behind it); answers how many. */
  denyAllWaiting: { args: [], result: v.number(), roles: ['main', 'consent'] },
  listBundles: { args: [], result: v.array(BundleSummarySchema), roles: ['main'] },
  getBundle: { args: [['bundleId', id]], result: BundleDetailSchema, roles: ['main'] },
  /** Sets a step's caption in the signed edits beside a sealed bundle (null: back to the original); answers the bundle as it now reads. */
  editCaption: {
    args: [['bundleId', id], ['receiptId', id], ['caption', v.nullable(v.pipe(v.string('must be text or null'), v.maxLength(MAX_CAPTION_LENGTH, `must be at most ${MAX_CAPTION_LENGTH} characters`)))]],
    result: BundleDetailSchema,
    roles: ['main'],
  },
  /** Checks a bundle's seal and files (as `cutright bundle verify`), naming the first problem; reports caption edits. */
  verifyBundle: {
    args: [['bundleId', id]],
    result: v.object({
      ok: v.boolean(),
      file: v.nullable(v.string()),
      problem: v.nullable(v.string()),
      fingerprint: v.nullable(v.string()),
      editedCaptions: v.number(),
      editedAt: v.nullable(v.number()),
    }),
    roles: ['main'],
  },
  /**
   * Writes an export of the bundle into the data folder's exports/; answers its path and size.
   * A video or GIF takes a while: the view's `exports` says how far it is meanwhile.
   */
  exportBundle: {
    args: [['bundleId', id], ['format', v.picklist(EXPORT_FORMATS, `must be one of ${EXPORT_FORMATS.join(', ')}`)]],
    result: v.object({ path: v.string(), bytes: v.number() }),
    roles: ['main'],
  },
  /** The bundle's folder on disk (to copy its path). */
  locateBundle: { args: [['bundleId', id]], result: v.string(), roles: ['main'] },
  /** Shows the bundle's folder in the file manager; answers its path, and why not when it could not. */
  revealBundle: {
    args: [['bundleId', id]],
    result: v.object({ path: v.string(), opened: v.boolean(), problem: v.nullable(v.string()) }),
    roles: ['main'],
  },
  /** Deletes a bundle from disk (the UI asks the person first); refused while its session records. */
  deleteBundle: { args: [['bundleId', id]], result: nothing, roles: ['main'] },
  getSettings: { args: [], result: SettingsSchema, roles: ['main'] },
  /** The apps the host puts in the catalog itself, ahead of the settings' (the fixture, when fixtures are on). */
  builtInApps: { args: [], result: v.array(AppEntrySchema), roles: ['main'] },
  /** "Check this app": opens the app where nobody sees it and answers whether a session of it can be recorded, and why not. */
  checkApp: {
    args: [['app', AppEntrySchema]],
    result: v.object({ url: v.string(), state: v.picklist(['safe', 'unsafe', 'unknown']), reason: v.nullable(v.string()) }),
    roles: ['main'],
  },
  /** The shape is checked here; the settings store checks the rest (unique ids, origins). */
  saveSettings: { args: [['settings', SettingsSchema]], result: SettingsSchema, roles: ['main'] },
} as const satisfies Record<string, CallSpec>;

export type BridgeCall = keyof typeof BRIDGE_TABLE;
export const BRIDGE_CALLS = Object.keys(BRIDGE_TABLE) as BridgeCall[];

type ArgsOf<A extends readonly ArgSpec[]> = { -readonly [I in keyof A]: A[I] extends ArgSpec ? v.InferOutput<A[I][1]> : never };
export type BridgeArgs<K extends BridgeCall> = ArgsOf<(typeof BRIDGE_TABLE)[K]['args']>;
export type BridgeResult<K extends BridgeCall> = v.InferOutput<(typeof BRIDGE_TABLE)[K]['result']>;

/** What "Check this app" answers: the page opened, and whether a session of it can be recorded (`reason` says why not). */
export type AppCheckResult = BridgeResult<'checkApp'>;

/** Every call as a method: what the host implements and what the renderer's proxy offers. */
export type BridgeCalls = { [K in BridgeCall]: (...args: BridgeArgs<K>) => Promise<BridgeResult<K>> };

export function isBridgeCall(value: unknown): value is BridgeCall {
  return typeof value === 'string' && Object.hasOwn(BRIDGE_TABLE, value);
}

/** The calls a window of this role may make, in table order. */
export function callsOf(role: WindowRole): BridgeCall[] {
  return BRIDGE_CALLS.filter((call) => (BRIDGE_TABLE[call].roles as readonly WindowRole[]).includes(role));
}

/** Whether any of `roles` may make `call`. */
export function mayCall(roles: readonly WindowRole[], call: BridgeCall): boolean {
  return roles.some((role) => (BRIDGE_TABLE[call].roles as readonly WindowRole[]).includes(role));
}
