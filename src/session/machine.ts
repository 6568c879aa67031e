// The state machine of one agent demo session (XState v5), from the request's arrival to the
// sealed bundle. It is the single source of truth for a session's state, its counts and its
// times: the host sends it events and reads its snapshot and tags; the UI is shown a
// projection of it. The effects (creating the bundle, arming, closing the target, sealing) are
// invoked actors the host supplies through `provide`, so tests run the machine with their own.
import { assign, fromPromise, setup } from 'xstate';
import type { EndState } from '../contract/end-state.js';
import { REQUEST_TIMEOUT_MS } from '../contract/methods.js';

/** Why consent ended without a session. */
export type DenyReason = 'deny' | 'deny all waiting' | 'client disconnected' | 'timeout' | 'demo mode off' | 'host shutdown';

/** Why a session was killed; written into its bundle. */
export type KillReason =
  | 'kill control'
  | 'host shutdown'
  | 'target closed'
  | 'target crashed'
  | 'target could not open'
  | 'demo mode off'
  | 'disk full'
  | 'data folder unwritable'
  | 'arming failed';


export interface SessionInput {
  sessionId: string;
  appId: string;
  appName: string;
  agentName: string;
  requestedAt: number;
}

export interface SessionContext extends SessionInput {
  answeredAt: number | null;
  armedAt: number | null;
  endedAt: number | null;
  /** Receipts recorded (acts and batch steps that completed). */
  steps: number;
  bundleId: string | null;
  denyReason: DenyReason | null;
  outcome: EndState | null;
  killReason: KillReason | null;
  /** Set when arming failed for a missing OS permission: the message names it and the fix. */
  permissionProblem: string | null;
  /** What went wrong, for a session killed by a failure (the bundle could not be made, the target not opened, a write failed). */
  failure: string | null;
  /** Set when the bundle could not be sealed (it is then sealed as a crash on the next start). */
  sealProblem: string | null;
}

type SessionEvent =
  | { type: 'CONSENT_SHOWN' }
  | { type: 'ALLOW'; at: number }
  | { type: 'DENY'; reason: DenyReason }
  | { type: 'BUNDLE_OPENED'; bundleId: string }
  | { type: 'STEP_RECORDED' }
  | { type: 'END'; at: number }
  | { type: 'KILL'; reason: KillReason; at: number; failure?: string };

/** The error an arming effect throws when an OS permission is missing. */
export class PermissionMissingError extends Error {
  override readonly name = 'PermissionMissingError';
}

/** The error an effect throws for a failure that ends the session `killed` with this reason. */
export class SessionFailure extends Error {
  override readonly name = 'SessionFailure';
  constructor(
    readonly reason: KillReason,
    message: string,
  ) {
    super(message);
  }
}

/** Tags of the machine's states, read instead of state names. */
export const TAG = {
  /** Consent given and not ended yet: the kill control is shown and reachable. */
  live: 'live',
  /** Snapshots, acts and batches may run. */
  acceptsCalls: 'acceptsCalls',
  /** Waiting for the person (queued or shown). */
  awaitingConsent: 'awaitingConsent',
} as const;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const sessionMachine = setup({
  types: {
    input: {} as SessionInput,
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    // Creates the bundle with its consent record; resolves with its id. The host provides the real one.
    openBundle: fromPromise<string>(async () => {
      throw new Error('no openBundle effect was provided');
    }),
    // Opens or focuses the target and attaches the driver; resolves with the time it was armed.
    arm: fromPromise<number>(async () => {
      throw new Error('no arming effect was provided');
    }),
    // Lets calls in flight finish (an end) or not (a kill), then detaches and closes the target.
    close: fromPromise<void, { outcome: EndState }>(async () => {}),
    // Records the end and seals the bundle.
    seal: fromPromise<void, { outcome: EndState; reason: string }>(async () => {}),
  },
  delays: {
    consentTimeout: REQUEST_TIMEOUT_MS,
  },
  guards: {
    isPermissionProblem: ({ event }) => (event as { error?: unknown }).error instanceof PermissionMissingError,
    wasKilled: ({ context }) => context.outcome === 'killed',
  },
  actions: {
    recordEnd: assign(({ event }) => (event.type === 'END' ? { outcome: 'complete' as const, endedAt: event.at } : {})),
    // The end of a session whose target never opened: killed, because the target could not open.
    recordOpenFailure: assign(({ event, context }) =>
      event.type === 'END' || event.type === 'KILL'
        ? { outcome: 'killed' as const, killReason: 'target could not open' as const, failure: context.permissionProblem ?? context.failure, endedAt: event.at }
        : {},
    ),
    recordKill: assign(({ event, context }) =>
      event.type === 'KILL' ? { outcome: 'killed' as const, killReason: event.reason, failure: event.failure ?? context.failure, endedAt: event.at } : {},
    ),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    ...input,
    answeredAt: null,
    armedAt: null,
    endedAt: null,
    steps: 0,
    bundleId: null,
    denyReason: null,
    outcome: null,
    killReason: null,
    permissionProblem: null,
    failure: null,
    sealProblem: null,
  }),
  initial: 'awaitingConsent',
  on: {
    // A receipt being written when a kill landed still stands, and is counted.
    STEP_RECORDED: { actions: assign({ steps: ({ context }) => context.steps + 1 }) },
    BUNDLE_OPENED: { actions: assign({ bundleId: ({ event }) => event.bundleId }) },
  },
  states: {
    // From demo.request's arrival until the person answers; 600 s in all, queue time included,
    // matching the client's own 600 s timeout.
    awaitingConsent: {
      tags: [TAG.awaitingConsent],
      initial: 'requested',
      after: {
        consentTimeout: { target: 'denied', actions: assign({ denyReason: 'timeout' as const }) },
      },
      on: {
        DENY: { target: 'denied', actions: assign({ denyReason: ({ event }) => event.reason }) },
      },
      states: {
        // Waiting for its turn: one consent dialog at a time.
        requested: {
          on: { CONSENT_SHOWN: 'consenting' },
        },
        consenting: {
          on: { ALLOW: { target: '#session.allowing', actions: assign({ answeredAt: ({ event }) => event.at }) } },
        },
      },
    },
    // Allowed: the bundle is created before anything else (the token is minted only once it
    // exists), so every step has a place to be recorded; a bundle that cannot be made ends here.
    allowing: {
      tags: [TAG.live],
      invoke: {
        src: 'openBundle',
        onDone: { target: 'live', actions: assign({ bundleId: ({ event }) => event.output }) },
        onError: {
          target: 'killed',
          actions: assign({
            outcome: 'killed' as const,
            killReason: ({ event }) => (event.error instanceof SessionFailure ? event.error.reason : 'data folder unwritable'),
            failure: ({ event }) => errorMessage(event.error),
          }),
        },
      },
      on: { KILL: { target: 'closing', actions: 'recordKill' } },
    },
    // Consent given and the bundle made: the agent holds its token from here.
    live: {
      initial: 'arming',
      on: {
        END: { target: 'closing', actions: 'recordEnd' },
        KILL: { target: 'closing', actions: 'recordKill' },
      },
      states: {
        arming: {
          tags: [TAG.live],
          invoke: {
            src: 'arm',
            onDone: { target: 'armed', actions: assign({ armedAt: ({ event }) => event.output }) },
            onError: [
              {
                guard: 'isPermissionProblem',
                target: 'permissionMissing',
                actions: assign({ permissionProblem: ({ event }) => errorMessage(event.error) }),
              },
              {
                target: '#session.closing',
                actions: assign(({ event }) => ({
                  outcome: 'killed' as const,
                  killReason: event.error instanceof SessionFailure ? event.error.reason : ('arming failed' as const),
                  failure: errorMessage(event.error),
                })),
              },
            ],
          },
        },
        armed: {
          tags: [TAG.live, TAG.acceptsCalls],
        },
        // Consent was given but the host cannot drive the target: calls get permission_missing
        // until the agent ends the session or the person stops it. However it ends, nothing
        // ran: it is sealed `killed` with the missing permission as its reason (never
        // `complete` with no steps).
        permissionMissing: {
          tags: [TAG.live],
          on: {
            END: { target: '#session.closing', actions: 'recordOpenFailure' },
            KILL: { target: '#session.closing', actions: 'recordOpenFailure' },
          },
        },
      },
    },
    closing: {
      invoke: {
        src: 'close',
        input: ({ context }) => ({ outcome: context.outcome ?? 'killed' }),
        onDone: 'sealing',
        // The target is left to the launcher (closed with it); the bundle is sealed all the same.
        onError: 'sealing',
      },
    },
    sealing: {
      invoke: {
        src: 'seal',
        input: ({ context }) => ({ outcome: context.outcome ?? 'killed', reason: endReason(context) }),
        onDone: [{ guard: 'wasKilled', target: 'killed' }, { target: 'ended' }],
        onError: [
          { guard: 'wasKilled', target: 'killed', actions: assign({ sealProblem: ({ event }) => errorMessage(event.error) }) },
          { target: 'ended', actions: assign({ sealProblem: ({ event }) => errorMessage(event.error) }) },
        ],
      },
    },
    denied: { type: 'final' },
    ended: { type: 'final' },
    killed: { type: 'final' },
  },
});

/** The reason written into the bundle's end. */
export function endReason(context: SessionContext): string {
  if (context.outcome !== 'killed') return 'demo.end';
  const reason = context.killReason ?? 'kill control';
  return context.failure ? `${reason}: ${context.failure}` : reason;
}
