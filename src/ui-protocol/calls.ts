// The UI bridge's calls, declared once: each call's arguments (named, each with its schema),
// its result's schema, and the host windows allowed to make it. Everything else is derived
// from this table: the host's dispatcher (dispatch.ts), the renderer's proxy and result checks
// (renderer/src/bridge/), Electron's per-window allow lists (electron/ipc-channels.ts) and
// the three preloads built from one source (electron/preload/). Adding a call means one row
// here and its implementation in the host.
import * as v from 'valibot';
import { BundleDetailSchema, BundleSummarySchema } from '../bundle/views.js';
import { SettingsSchema } from '../settings/settings.js';

/**
 * The host's windows in Electron: the main window, the small consent window and the kill
 * control. The web shell's one page holds every role.
 */
export const WINDOW_ROLES = ['main', 'consent', 'kill'] as const;
export type WindowRole = (typeof WINDOW_ROLES)[number];

export const CONSENT_ANSWERS = ['allow', 'deny'] as const;
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
  getSettings: { args: [], result: SettingsSchema, roles: ['main'] },
  /** The shape is checked here; the settings store checks the rest (unique ids, origins). */
  saveSettings: { args: [['settings', SettingsSchema]], result: SettingsSchema, roles: ['main'] },
} as const satisfies Record<string, CallSpec>;

export type BridgeCall = keyof typeof BRIDGE_TABLE;
export const BRIDGE_CALLS = Object.keys(BRIDGE_TABLE) as BridgeCall[];

type ArgsOf<A extends readonly ArgSpec[]> = { -readonly [I in keyof A]: A[I] extends ArgSpec ? v.InferOutput<A[I][1]> : never };
export type BridgeArgs<K extends BridgeCall> = ArgsOf<(typeof BRIDGE_TABLE)[K]['args']>;
export type BridgeResult<K extends BridgeCall> = v.InferOutput<(typeof BRIDGE_TABLE)[K]['result']>;

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
