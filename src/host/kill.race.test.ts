// Batch and kill (HOST-SPEC section 3): a batch stops at its first failing step (a ref, op,
// gate or key problem, or a runtime failure) with failed_step and error_code; the capture gate is checked before
// every step; and a kill fired at random moments during batches leaves no receipt after it.
// Real core, real Chromium, real bundles; the page is read through the target's own CDP
// transport (the launcher wrapper keeps it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../contract/types.js';
import { armedSnapshot, codeOf, errorOf, evaluate, find, openSession, startTestCore, waitFor, type TestCore } from './harness.test-support.js';

let t: TestCore;

beforeAll(async () => {
  t = await startTestCore();
});

afterAll(async () => {
  await t?.stop();
});

async function bundleOf(session: string) {
  const summary = await waitFor(async () => (await t.core.bundles.list()).find((b) => b.sessionId === session), `the bundle of ${session}`);
  return t.core.bundles.get(summary.bundleId);
}

async function pageState(): Promise<{ name: string; greeting: string; subscribed: boolean }> {
  return evaluate(
    t.launcher.last,
    "({ name: document.getElementById('name')?.value ?? null, greeting: document.getElementById('greeting').textContent, subscribed: document.getElementById('subscribe').checked })",
  );
}

describe('batch: a step that fails its checks stops the batch there (HOST-SPEC section 3)', () => {
  it.each([
    ['an unknown ref at step 3', (_secure: string): Step => ({ ref: 'e-never-issued', op: 'click' }), 'invalid_arguments'],
    ['an op the element does not offer at step 3', (_secure: string): Step => ({ ref: 'SUBMIT', op: 'type', text: 'x' }), 'invalid_arguments'],
    ['a key outside the grammar at step 3', (_secure: string): Step => ({ ref: 'NAME', op: 'press', key: 'ctrl+nosuchkey' }), 'invalid_arguments'],
    ['a secure field at step 3', (secure: string): Step => ({ ref: secure, op: 'type', text: 'x' }), 'target_blocked'],
  ] as const)('%s: the steps before it run and keep their receipts, failed_step 2, nothing after it runs', async (_rule, third, code) => {
    const granted = await openSession(t);
    const elements = await armedSnapshot(t.client, granted.token);
    const name = find(elements, 'textbox', 'Name').ref;
    const submit = find(elements, 'button', 'Submit').ref;
    const resolve = (step: Step): Step => ({ ...step, ref: step.ref === 'SUBMIT' ? submit : step.ref === 'NAME' ? name : step.ref });
    const steps: Step[] = [
      { ref: name, op: 'type', text: 'abc' },
      { ref: find(elements, 'checkbox', 'Subscribe').ref, op: 'click' },
      resolve(third(find(elements, 'textbox', 'Password').ref)),
      { ref: submit, op: 'click' },
    ];
    const result = await t.client.call('demo.batch', { token: granted.token, steps });
    expect(result).toMatchObject({ completed: 2, failed_step: 2, error_code: code });
    expect(result.results).toHaveLength(2);
    // Steps 0 and 1 ran; Submit (step 3) did not.
    expect(await pageState()).toEqual({ name: 'abc', greeting: '', subscribed: true });
    const ended = await t.client.call('demo.end', { token: granted.token });
    expect((await t.core.bundles.get(ended.bundle_id)).steps.map((s) => s.receiptId)).toEqual(result.results.map((r) => r.receipt_id));
  });
});

describe('batch: runtime failures and the capture gate', () => {
  it('an element gone at run time stops the batch with failed_step and error_code; earlier receipts stand', async () => {
    const granted = await openSession(t);
    await armedSnapshot(t.client, granted.token);
    // A control whose click removes the Name field: the ref is valid when checked, gone when its step runs.
    await evaluate(
      t.launcher.last,
      "const b = document.createElement('button'); b.type = 'button'; b.textContent = 'Zap'; b.onclick = () => document.getElementById('name').remove(); document.querySelector('main').append(b); true",
    );
    const elements = await armedSnapshot(t.client, granted.token);
    const result = await t.client.call('demo.batch', {
      token: granted.token,
      steps: [
        { ref: find(elements, 'checkbox', 'Subscribe').ref, op: 'click' },
        { ref: find(elements, 'button', 'Zap').ref, op: 'click' },
        { ref: find(elements, 'textbox', 'Name').ref, op: 'type', text: 'late' },
        { ref: find(elements, 'button', 'Submit').ref, op: 'click' },
      ],
    });
    expect(result).toMatchObject({ completed: 2, failed_step: 2, error_code: 'invalid_arguments' });
    expect(result.results).toHaveLength(2);
    expect((await pageState()).greeting).toBe('');
    const ended = await t.client.call('demo.end', { token: granted.token });
    expect((await t.core.bundles.get(ended.bundle_id)).steps.map((s) => s.receiptId)).toEqual(result.results.map((r) => r.receipt_id));
  });

  it('the capture gate runs before every step: Go private then Submit fails at step 1 with capture_unsafe', async () => {
    const granted = await openSession(t);
    const elements = await armedSnapshot(t.client, granted.token);
    const result = await t.client.call('demo.batch', {
      token: granted.token,
      steps: [
        { ref: find(elements, 'textbox', 'Name').ref, op: 'type', text: 'Ada' },
        { ref: find(elements, 'button', 'Go private').ref, op: 'click' },
        { ref: find(elements, 'button', 'Submit').ref, op: 'click' },
      ],
    });
    expect(result).toMatchObject({ completed: 2, failed_step: 2, error_code: 'capture_unsafe' });
    expect((await pageState()).greeting).toBe('');
    await new Promise((r) => setTimeout(r, 200)); // pictures are taken off the answer's path
    const ended = await t.client.call('demo.end', { token: granted.token });
    const steps = (await t.core.bundles.get(ended.bundle_id)).steps;
    expect(steps.map((s) => s.label)).toEqual(['Name', 'Go private']);
    // No picture of a target that is not capture-safe: the Go private step has none.
    expect(steps[1]?.picture).toBeNull();
  });

  it('Go private as the first of two steps: the batch fails at step 1', async () => {
    const granted = await openSession(t);
    const elements = await armedSnapshot(t.client, granted.token);
    const result = await t.client.call('demo.batch', {
      token: granted.token,
      steps: [
        { ref: find(elements, 'button', 'Go private').ref, op: 'click' },
        { ref: find(elements, 'button', 'Submit').ref, op: 'click' },
      ],
    });
    expect(result).toMatchObject({ completed: 1, failed_step: 1, error_code: 'capture_unsafe' });
    await t.client.call('demo.end', { token: granted.token });
  });

  it('a batch already running when demo.end comes stops with session_ended', async () => {
    const granted = await openSession(t);
    const elements = await armedSnapshot(t.client, granted.token);
    const name = find(elements, 'textbox', 'Name').ref;
    const batch = t.client.call('demo.batch', { token: granted.token, steps: Array.from({ length: 20 }, () => ({ ref: name, op: 'type' as const, text: 'e' })) });
    await new Promise((r) => setTimeout(r, 20));
    const ended = await t.client.call('demo.end', { token: granted.token });
    const result = await batch;
    if (result.failed_step !== null) expect(result.error_code).toBe('session_ended');
    expect((await t.core.bundles.get(ended.bundle_id)).steps.map((s) => s.receiptId)).toEqual(result.results.map((r) => r.receipt_id));
  });
});

// 60 trials keep this well under a minute on 2 cores beside other test files (each trial opens a real page);
// CUTRIGHT_KILL_TRIALS=200 runs more (about 130 s alone).
const TRIALS = Number(process.env['CUTRIGHT_KILL_TRIALS'] ?? 60);
const LANES = Number(process.env['CUTRIGHT_KILL_LANES'] ?? 2);

interface TrialOutcome {
  completed: number;
  killedBeforeStart: boolean;
}

/** One trial: a session, a batch of 20 typing steps, a kill after a random 0-30 ms. */
async function trial(random: () => number): Promise<TrialOutcome> {
  const t0 = Date.now();
  const granted = await openSession(t);
  const elements = await armedSnapshot(t.client, granted.token);
  const t1 = Date.now();
  const name = find(elements, 'textbox', 'Name').ref;
  const steps = Array.from({ length: 20 }, (_, i) => ({ ref: name, op: 'type' as const, text: String.fromCharCode(97 + i) }));
  const batch = t.client.call('demo.batch', { token: granted.token, steps }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  // Most kills land in the tight window at the batch's start (0-30 ms); the rest anywhere in it.
  const delay = random() < 0.7 ? random() * 30 : random() * 600;
  await new Promise((r) => setTimeout(r, Math.floor(delay)));
  const killAt = Date.now();
  await t.core.host.bridge.kill(granted.session);
  const outcome = await batch;
  const t2 = Date.now();
  if (process.env['CUTRIGHT_KILL_TRACE']) console.log(`arm ${t1 - t0} batch+kill ${t2 - t1} (kill took ${t2 - killAt})`);

  const bundle = await bundleOf(granted.session);
  expect(bundle.summary).toMatchObject({ state: 'killed', reason: 'kill control' });
  const recorded = bundle.steps.map((s) => s.receiptId);
  // No receipt is stamped after the kill: no step completed after it.
  for (const step of bundle.steps) expect(step.at).toBeLessThanOrEqual(killAt);
  if ('error' in outcome) {
    // Killed before the batch began: nothing ran.
    expect((outcome.error as { code?: string }).code).toBe('session_killed');
    expect(recorded).toEqual([]);
    return { completed: 0, killedBeforeStart: true };
  }
  const { result } = outcome;
  // Every receipt the client got is in the bundle, and the bundle holds no other.
  expect(recorded).toEqual(result.results.map((r) => r.receipt_id));
  if (result.failed_step !== null) {
    expect(result).toMatchObject({ error_code: 'session_killed', failed_step: result.completed });
  } else {
    expect(result.completed).toBe(20);
  }
  // A kill is final: the token answers session_killed from now on.
  expect(await codeOf(t.client.call('demo.snapshot', { token: granted.token }))).toBe('session_killed');
  return { completed: result.completed, killedBeforeStart: false };
}

/** A small seeded generator, so a failing run can be repeated (CUTRIGHT_KILL_SEED). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('kill race', () => {
  it(
    `${TRIALS} kills at random moments during batches: no receipt after the kill, every receipt the client got is in the bundle`,
    async () => {
      const seed = Number(process.env['CUTRIGHT_KILL_SEED'] ?? Date.now() % 1_000_000);
      const random = seeded(seed);
      const outcomes: TrialOutcome[] = [];
      let next = 0;
      const lane = async () => {
        while (next < TRIALS) {
          next += 1;
          outcomes.push(await trial(random));
        }
      };
      const started = Date.now();
      await Promise.all(Array.from({ length: LANES }, lane));
      const elapsed = Date.now() - started;
      const histogram = new Map<number, number>();
      for (const o of outcomes) histogram.set(o.completed, (histogram.get(o.completed) ?? 0) + 1);
      console.log(
        `kill race: ${outcomes.length} trials in ${elapsed} ms (seed ${seed}); steps completed before the kill -> trials: ` +
          [...histogram.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}:${v}`).join(' '),
      );
      expect(outcomes).toHaveLength(TRIALS);
      // The kills landed at different points: before the batch and part way through it.
      expect(histogram.size).toBeGreaterThan(1);
      expect(t.view().live).toEqual([]);
    },
    180_000,
  );

  it('a kill while arming still seals the bundle killed', async () => {
    const release = t.launcher.hold();
    try {
      const granted = await openSession(t);
      await waitFor(async () => ((await t.core.bundles.list()).some((b) => b.sessionId === granted.session) ? true : undefined), 'the bundle');
      await t.core.host.bridge.kill(granted.session);
      release();
      expect((await errorOf(t.client.call('demo.snapshot', { token: granted.token }))).code).toBe('session_killed');
      expect((await bundleOf(granted.session)).summary).toMatchObject({ state: 'killed', reason: 'kill control' });
    } finally {
      release();
    }
  });
});
