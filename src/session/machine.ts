// The state machine of one agent demo session (XState v5). It is the single source of truth
// for a session's state: the host sends it events and reads its snapshot; the UI is shown a
// projection of it. Effects (arming: opening the target and starting capture) are supplied
// by the host through `provide`, so tests run the machine with their own.
import { assign, fromPromise, setup } from 'xstate';
import { REQUEST_TIMEOUT_MS } from '../contract/methods.js';

/** Why consent ended without a session. */
export type DenyReason = 'deny' | 'escape' | 'dialog closed' | 'client disconnected' | 'timeout' | 'host shutdown';

/** Why a live session was killed; written into its bundle. */
export type KillReason =
  | 'kill control'
  | 'host shutdown'
  | 'target closed'
  | 'target crashed'
  | 'demo mode off'
  | 'disk full'
  | 'data folder unwritable'
  | 'arming failed';

export interface SessionInput {
  sessionId: string;
  appId: string;
  appName: string;
  agentName: string;
}

export interface SessionContext extends SessionInput {
  denyReason: DenyReason | null;
  killReason: KillReason | null;
  /** Set when arming failed for a missing OS permission: the message names it and the fix. */
  permissionProblem: string | null;
  /** Detail of an arming failure that was not a permission. */
  failure: string | null;
}

export type SessionEvent =
  | { type: 'CONSENT_SHOWN' }
  | { type: 'ALLOW' }
  | { type: 'DENY'; reason: DenyReason }
  | { type: 'END' }
  | { type: 'KILL'; reason: KillReason };

/** The error an arming effect throws when an OS permission is missing. */
export class PermissionMissingError extends Error {
  override readonly name = 'PermissionMissingError';
}

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
    // Opens or focuses the target and starts capture. The host provides the real one.
    arm: fromPromise<void, SessionInput>(async () => {
      throw new Error('no arming effect was provided');
    }),
  },
  delays: {
    consentTimeout: REQUEST_TIMEOUT_MS,
  },
  guards: {
    isPermissionProblem: ({ event }) => (event as { error?: unknown }).error instanceof PermissionMissingError,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ ...input, denyReason: null, killReason: null, permissionProblem: null, failure: null }),
  initial: 'awaitingConsent',
  states: {
    // From demo.request's arrival until the person answers; 600 s in all, queue time included,
    // matching the client's own 600 s timeout.
    awaitingConsent: {
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
          on: { ALLOW: '#session.live' },
        },
      },
    },
    live: {
      initial: 'arming',
      on: {
        END: 'ended',
        KILL: { target: 'killed', actions: assign({ killReason: ({ event }) => event.reason }) },
      },
      states: {
        arming: {
          invoke: {
            src: 'arm',
            input: ({ context }) => ({
              sessionId: context.sessionId,
              appId: context.appId,
              appName: context.appName,
              agentName: context.agentName,
            }),
            onDone: 'armed',
            onError: [
              {
                guard: 'isPermissionProblem',
                target: 'permissionMissing',
                actions: assign({ permissionProblem: ({ event }) => errorMessage(event.error) }),
              },
              {
                target: '#session.killed',
                actions: assign({ killReason: 'arming failed' as const, failure: ({ event }) => errorMessage(event.error) }),
              },
            ],
          },
        },
        armed: {},
        // Consent was given but the host cannot drive the target: calls get permission_missing
        // until the agent ends the session or the person stops it.
        permissionMissing: {},
      },
    },
    denied: { type: 'final' },
    ended: { type: 'final' },
    killed: { type: 'final' },
  },
});

export type SessionMachine = typeof sessionMachine;

/** The phase of a session as the rest of the host reads it. */
export type SessionStatus = 'requested' | 'consenting' | 'arming' | 'armed' | 'permissionMissing' | 'denied' | 'ended' | 'killed';

export function statusOf(snapshot: { value: unknown }): SessionStatus {
  const value = snapshot.value;
  if (typeof value === 'string') return value as SessionStatus;
  const [, inner] = Object.entries(value as Record<string, string>)[0] ?? [];
  return inner as SessionStatus;
}
