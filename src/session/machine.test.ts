import type { EndState } from '../contract/end-state.js';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type SnapshotFrom } from 'xstate';
import { PermissionMissingError, SessionFailure, TAG, endReason, sessionMachine } from './machine.js';

const input = { sessionId: 's-1', appId: 'app.x', appName: 'X', agentName: 'agent', requestedAt: 1000 };

interface Effects {
  openBundle?: () => Promise<string>;
  arm?: (signal: AbortSignal) => Promise<number>;
  close?: (outcome: EndState) => Promise<void>;
  seal?: (outcome: EndState, reason: string) => Promise<void>;
}

/** The machine with effects that record what they were asked; each can be replaced. */
function start(effects: Effects = {}) {
  const calls: string[] = [];
  const clock = new SimulatedClock();
  const machine = sessionMachine.provide({
    actors: {
      openBundle: fromPromise(async () => {
        calls.push('openBundle');
        return (effects.openBundle ?? (async () => 'b-1'))();
      }),
      arm: fromPromise(async ({ signal }) => {
        calls.push('arm');
        return (effects.arm ?? (async () => 2000))(signal);
      }),
      close: fromPromise(async ({ input: { outcome } }) => {
        calls.push(`close ${outcome}`);
        return (effects.close ?? (async () => {}))(outcome);
      }),
      seal: fromPromise(async ({ input: { outcome, reason } }) => {
        calls.push(`seal ${outcome} (${reason})`);
        return (effects.seal ?? (async () => {}))(outcome, reason);
      }),
    },
  });
  const actor = createActor(machine, { input, clock }).start();
  return { actor, clock, calls, snapshot: () => actor.getSnapshot() };
}

/** The state as one dotted name, e.g. `live.armed`. */
function stateOf(snapshot: SnapshotFrom<typeof sessionMachine>): string {
  const value = snapshot.value;
  if (typeof value === 'string') return value;
  return Object.entries(value).map(([outer, inner]) => `${outer}.${String(inner)}`)[0] ?? '';
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

async function armed(effects: Effects = {}) {
  const started = start(effects);
  started.actor.send({ type: 'CONSENT_SHOWN' });
  started.actor.send({ type: 'ALLOW', at: 1500 });
  await settle();
  return started;
}

describe('session machine: the whole lifecycle', () => {
  it('requested → consenting → allowing (bundle) → arming → armed → closing → sealing → ended, with times and counts', async () => {
    const { actor, calls, snapshot } = start();
    expect(stateOf(snapshot())).toBe('awaitingConsent.requested');
    expect(snapshot().hasTag(TAG.awaitingConsent)).toBe(true);
    actor.send({ type: 'CONSENT_SHOWN' });
    expect(stateOf(snapshot())).toBe('awaitingConsent.consenting');
    actor.send({ type: 'ALLOW', at: 1500 });
    expect(stateOf(snapshot())).toBe('allowing');
    expect(snapshot().hasTag(TAG.live)).toBe(true);
    expect(snapshot().hasTag(TAG.acceptsCalls)).toBe(false);
    await settle();
    expect(stateOf(snapshot())).toBe('live.armed');
    expect(snapshot().hasTag(TAG.acceptsCalls)).toBe(true);
    expect(snapshot().context).toMatchObject({ requestedAt: 1000, answeredAt: 1500, armedAt: 2000, bundleId: 'b-1', steps: 0 });
    actor.send({ type: 'STEP_RECORDED' });
    actor.send({ type: 'STEP_RECORDED' });
    expect(snapshot().context.steps).toBe(2);
    actor.send({ type: 'END', at: 3000 });
    expect(stateOf(snapshot())).toBe('closing');
    expect(snapshot().hasTag(TAG.live)).toBe(false);
    await settle();
    expect(stateOf(snapshot())).toBe('ended');
    expect(snapshot().status).toBe('done');
    expect(snapshot().context).toMatchObject({ outcome: 'complete', endedAt: 3000 });
    expect(calls).toEqual(['openBundle', 'arm', 'close complete', 'seal complete (demo.end)']);
  });

  it('ignores Allow before the dialog is shown', () => {
    const { actor, snapshot } = start();
    actor.send({ type: 'ALLOW', at: 1 });
    expect(stateOf(snapshot())).toBe('awaitingConsent.requested');
  });

  it.each(['deny', 'deny all waiting', 'client disconnected', 'demo mode off', 'host shutdown'] as const)('denies on %s, and nothing is made', (reason) => {
    const { actor, calls, snapshot } = start();
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'DENY', reason });
    expect(stateOf(snapshot())).toBe('denied');
    expect(snapshot().context.denyReason).toBe(reason);
    expect(calls).toEqual([]);
  });

  it('denies a request still waiting in the queue when its client leaves', () => {
    const { actor, snapshot } = start();
    actor.send({ type: 'DENY', reason: 'client disconnected' });
    expect(stateOf(snapshot())).toBe('denied');
  });

  it('times out after 600 s without an answer, counting queue time', () => {
    const { actor, clock, snapshot } = start();
    clock.increment(300_000);
    actor.send({ type: 'CONSENT_SHOWN' });
    clock.increment(299_999);
    expect(stateOf(snapshot())).toBe('awaitingConsent.consenting');
    clock.increment(1);
    expect(stateOf(snapshot())).toBe('denied');
    expect(snapshot().context.denyReason).toBe('timeout');
  });

  it('does not time out once allowed', async () => {
    const { clock, snapshot } = await armed();
    clock.increment(700_000);
    expect(stateOf(snapshot())).toBe('live.armed');
  });

  it('a bundle that cannot be made ends the session killed, with nothing to close or seal', async () => {
    const { actor, calls, snapshot } = start({
      openBundle: async () => {
        throw new SessionFailure('disk full', 'no space left on device');
      },
    });
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW', at: 1 });
    await settle();
    expect(stateOf(snapshot())).toBe('killed');
    expect(snapshot().context).toMatchObject({ bundleId: null, outcome: 'killed', killReason: 'disk full', failure: 'no space left on device' });
    expect(calls).toEqual(['openBundle']);
  });

  it('a kill while the bundle is being made goes through closing and sealing (the seal waits for the bundle)', async () => {
    let made!: (id: string) => void;
    const { actor, calls, snapshot } = start({ openBundle: () => new Promise((resolve) => (made = resolve)) });
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW', at: 1 });
    actor.send({ type: 'KILL', reason: 'kill control', at: 2 });
    made('b-1');
    await settle();
    expect(stateOf(snapshot())).toBe('killed');
    expect(calls).toEqual(['openBundle', 'close killed', 'seal killed (kill control)']);
  });

  it('is killed from arming, aborting the arming effect', async () => {
    let aborted = false;
    const { actor, calls, snapshot } = start({
      arm: (signal) => new Promise<number>((_, reject) => signal.addEventListener('abort', () => {
        aborted = true;
        reject(new Error('aborted'));
      })),
    });
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW', at: 1 });
    await settle();
    expect(stateOf(snapshot())).toBe('live.arming');
    actor.send({ type: 'KILL', reason: 'kill control', at: 5 });
    expect(aborted).toBe(true);
    await settle();
    expect(stateOf(snapshot())).toBe('killed');
    expect(snapshot().context).toMatchObject({ killReason: 'kill control', endedAt: 5 });
    expect(calls.slice(-2)).toEqual(['close killed', 'seal killed (kill control)']);
  });

  it('an end while arming ends it (sealed complete)', async () => {
    const { actor, calls, snapshot } = start({ arm: () => new Promise<number>(() => {}) });
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW', at: 1 });
    await settle();
    actor.send({ type: 'END', at: 9 });
    await settle();
    expect(stateOf(snapshot())).toBe('ended');
    expect(calls.slice(-2)).toEqual(['close complete', 'seal complete (demo.end)']);
  });

  it('goes to permissionMissing when arming lacks an OS permission, and can still be ended', async () => {
    const { actor, snapshot } = await armed({
      arm: async () => {
        throw new PermissionMissingError('Screen Recording is not granted: System Settings > Privacy & Security > Screen Recording');
      },
    });
    expect(stateOf(snapshot())).toBe('live.permissionMissing');
    expect(snapshot().hasTag(TAG.live)).toBe(true);
    expect(snapshot().hasTag(TAG.acceptsCalls)).toBe(false);
    expect(snapshot().context.permissionProblem).toMatch(/Screen Recording/);
    actor.send({ type: 'END', at: 3 });
    await settle();
    // Nothing ran: the end is a kill, with the missing permission as its reason.
    expect(stateOf(snapshot())).toBe('killed');
    expect(snapshot().context).toMatchObject({ outcome: 'killed', killReason: 'target could not open', endedAt: 3 });
    expect(endReason(snapshot().context)).toMatch(/^target could not open: Screen Recording is not granted/);
  });

  it('a Stop while the permission is missing seals it killed with the permission as the reason, not the kill control', async () => {
    const { actor, snapshot, calls } = await armed({
      arm: async () => {
        throw new PermissionMissingError('no browser to open the app in');
      },
    });
    actor.send({ type: 'KILL', reason: 'kill control', at: 5 });
    await settle();
    expect(stateOf(snapshot())).toBe('killed');
    expect(calls.at(-1)).toBe('seal killed (target could not open: no browser to open the app in)');
  });

  it('is killed with reason "arming failed" (or the failure\'s own reason) when arming fails otherwise', async () => {
    const plain = await armed({
      arm: async () => {
        throw new Error('target did not load');
      },
    });
    expect(stateOf(plain.snapshot())).toBe('killed');
    expect(plain.snapshot().context).toMatchObject({ killReason: 'arming failed', failure: 'target did not load' });
    expect(plain.calls.at(-1)).toBe('seal killed (arming failed: target did not load)');

    const named = await armed({
      arm: async () => {
        throw new SessionFailure('target could not open', 'net::ERR_CONNECTION_REFUSED');
      },
    });
    expect(named.snapshot().context).toMatchObject({ killReason: 'target could not open', failure: 'net::ERR_CONNECTION_REFUSED' });
  });

  it('stays killed: END after KILL changes nothing', async () => {
    const { actor, snapshot } = await armed();
    actor.send({ type: 'KILL', reason: 'target closed', at: 4 });
    actor.send({ type: 'END', at: 5 });
    await settle();
    expect(stateOf(snapshot())).toBe('killed');
    expect(snapshot().context.killReason).toBe('target closed');
  });

  it('a seal that fails still ends the session, with the problem kept', async () => {
    const { actor, snapshot } = await armed({
      seal: async () => {
        throw new Error('ENOSPC');
      },
    });
    actor.send({ type: 'KILL', reason: 'kill control', at: 4 });
    await settle();
    expect(stateOf(snapshot())).toBe('killed');
    expect(snapshot().context.sealProblem).toBe('ENOSPC');
  });

  it('the bundle end reason names the kill and its failure', () => {
    const base = { ...input, answeredAt: 1, armedAt: 2, endedAt: 3, steps: 0, bundleId: 'b', denyReason: null, permissionProblem: null, sealProblem: null };
    expect(endReason({ ...base, outcome: 'complete', killReason: null, failure: null })).toBe('demo.end');
    expect(endReason({ ...base, outcome: 'killed', killReason: 'disk full', failure: 'ENOSPC' })).toBe('disk full: ENOSPC');
  });
});
