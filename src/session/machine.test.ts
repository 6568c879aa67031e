import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { PermissionMissingError, sessionMachine, statusOf } from './machine.js';

const input = { sessionId: 's-1', appId: 'app.x', appName: 'X', agentName: 'agent' };

function start(arm: () => Promise<void> = async () => {}) {
  const clock = new SimulatedClock();
  const machine = sessionMachine.provide({ actors: { arm: fromPromise(arm) } });
  const actor = createActor(machine, { input, clock }).start();
  return { actor, clock, status: () => statusOf(actor.getSnapshot()) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('session machine', () => {
  it('starts requested, shows consent, arms after Allow and ends', async () => {
    const { actor, status } = start();
    expect(status()).toBe('requested');
    actor.send({ type: 'CONSENT_SHOWN' });
    expect(status()).toBe('consenting');
    actor.send({ type: 'ALLOW' });
    expect(status()).toBe('arming');
    await settle();
    expect(status()).toBe('armed');
    actor.send({ type: 'END' });
    expect(status()).toBe('ended');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('ignores Allow before the dialog is shown', () => {
    const { actor, status } = start();
    actor.send({ type: 'ALLOW' });
    expect(status()).toBe('requested');
  });

  it.each(['deny', 'escape', 'dialog closed', 'client disconnected'] as const)('denies on %s', (reason) => {
    const { actor, status } = start();
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'DENY', reason });
    expect(status()).toBe('denied');
    expect(actor.getSnapshot().context.denyReason).toBe(reason);
  });

  it('denies a request still waiting in the queue when its client leaves', () => {
    const { actor, status } = start();
    actor.send({ type: 'DENY', reason: 'client disconnected' });
    expect(status()).toBe('denied');
  });

  it('times out after 600 s without an answer, counting queue time', () => {
    const { actor, clock, status } = start();
    clock.increment(300_000);
    actor.send({ type: 'CONSENT_SHOWN' });
    clock.increment(299_999);
    expect(status()).toBe('consenting');
    clock.increment(1);
    expect(status()).toBe('denied');
    expect(actor.getSnapshot().context.denyReason).toBe('timeout');
  });

  it('does not time out once allowed', async () => {
    const { actor, clock, status } = start();
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW' });
    await settle();
    clock.increment(700_000);
    expect(status()).toBe('armed');
  });

  it('is killed from arming, aborting the arming effect', async () => {
    let aborted = false;
    const { actor, status } = start(
      () => new Promise<void>(() => {}),
    );
    const machine = sessionMachine.provide({
      actors: {
        arm: fromPromise(({ signal }) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); }))),
      },
    });
    const second = createActor(machine, { input }).start();
    second.send({ type: 'CONSENT_SHOWN' });
    second.send({ type: 'ALLOW' });
    second.send({ type: 'KILL', reason: 'kill control' });
    expect(statusOf(second.getSnapshot())).toBe('killed');
    expect(second.getSnapshot().context.killReason).toBe('kill control');
    expect(aborted).toBe(true);
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW' });
    actor.send({ type: 'KILL', reason: 'host shutdown' });
    expect(status()).toBe('killed');
  });

  it('goes to permissionMissing when arming lacks an OS permission, and can still be ended', async () => {
    const { actor, status } = start(async () => {
      throw new PermissionMissingError('Screen Recording is not granted: System Settings > Privacy & Security > Screen Recording');
    });
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW' });
    await settle();
    expect(status()).toBe('permissionMissing');
    expect(actor.getSnapshot().context.permissionProblem).toMatch(/Screen Recording/);
    actor.send({ type: 'END' });
    expect(status()).toBe('ended');
  });

  it('is killed with reason "arming failed" when arming fails otherwise', async () => {
    const { actor, status } = start(async () => {
      throw new Error('target did not load');
    });
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW' });
    await settle();
    expect(status()).toBe('killed');
    expect(actor.getSnapshot().context.killReason).toBe('arming failed');
    expect(actor.getSnapshot().context.failure).toBe('target did not load');
  });

  it('stays killed: END after KILL changes nothing', async () => {
    const { actor, status } = start();
    actor.send({ type: 'CONSENT_SHOWN' });
    actor.send({ type: 'ALLOW' });
    await settle();
    actor.send({ type: 'KILL', reason: 'target closed' });
    actor.send({ type: 'END' });
    expect(status()).toBe('killed');
    expect(actor.getSnapshot().context.killReason).toBe('target closed');
  });
});
