// Each method handler through the host's table, without Chromium: a real host (settings,
// bundles on disk, tokens) over scripted targets. The same rules run against the real driver
// in the conformance test.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../contract/errors.js';
import { FIXTURE_APP_ID } from '../../contract/fixture-id.js';
import type { DemoMethod, DemoMethods, SnapshotElement } from '../../contract/types.js';
import { codeOf } from '../harness.test-support.js';
import { connection, startScriptedHost, until, type ScriptedHost } from '../scripted-target.test-support.js';

let h: ScriptedHost;

beforeEach(async () => {
  h = await startScriptedHost();
});

afterEach(async () => {
  await h.cleanup();
});

const { call } = connection();

function handle<M extends DemoMethod>(method: M, params: DemoMethods[M]['params'], context = call): Promise<DemoMethods[M]['result']> {
  return h.host.handle(method, params, context);
}

async function allowed(agent = 'agent'): Promise<{ session: string; token: string }> {
  const request = handle('demo.request', { app: FIXTURE_APP_ID, agent_name: agent });
  const prompt = await until(() => (h.host.view().consent?.agentName === agent ? (h.host.view().consent ?? undefined) : undefined), 'the dialog');
  await h.host.bridge.answerConsent(prompt.consentId, 'allow');
  const granted = await request;
  await until(() => (h.host.view().live.find((s) => s.sessionId === granted.session)?.phase === 'armed' ? true : undefined), 'armed');
  return granted;
}

function ref(elements: SnapshotElement[], label: string): string {
  const found = elements.find((e) => e.label === label);
  if (!found) throw new Error(`no ${label}`);
  return found.ref;
}

async function receiptsOf(session: string): Promise<string[]> {
  const summary = (await h.bundles.list()).find((b) => b.sessionId === session);
  if (!summary) throw new Error('no bundle');
  return (await h.bundles.get(summary.bundleId)).steps.map((s) => s.receiptId);
}

describe('demo.apps and demo.request', () => {
  it('lists the catalog; refuses unknown, denied and the host itself before asking anyone', async () => {
    expect(await handle('demo.apps', {})).toEqual({ apps: [{ id: FIXTURE_APP_ID, name: 'Demo Fixture' }] });
    expect(await codeOf(handle('demo.request', { app: 'app.nope', agent_name: 'x' }))).toBe('unknown_app');
    h.host.setOwnOrigins(['http://127.0.0.1:9']);
    expect(await codeOf(handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'x' }))).toBe('target_blocked');
    h.host.setOwnOrigins([]);
    await h.settings.save({ ...h.settings.settings, deniedApps: [FIXTURE_APP_ID] });
    expect(await codeOf(handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'x' }))).toBe('target_blocked');
    expect(h.host.view().consent).toBeNull();
  });

  it('Deny answers consent_denied and leaves nothing; Allow answers the token of an armed session', async () => {
    const denied = handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'no' });
    const prompt = await until(() => h.host.view().consent ?? undefined, 'the dialog');
    await h.host.bridge.answerConsent(prompt.consentId, 'deny');
    expect(await codeOf(denied)).toBe('consent_denied');
    expect(await h.bundles.list()).toEqual([]);
    const granted = await allowed();
    expect(granted.token).toMatch(/.{40,}/);
    expect(await h.bundles.list()).toHaveLength(1);
  });

  it('Allow with a data folder that cannot take the bundle: no token, the error says why, the view shows the problem', async () => {
    // A file where the bundles folder should be: creating a bundle fails (ENOTDIR), even for root.
    await rm(h.bundles.bundlesDir, { recursive: true });
    await writeFile(h.bundles.bundlesDir, 'not a folder');
    const request = handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'unlucky' });
    const prompt = await until(() => h.host.view().consent ?? undefined, 'the dialog');
    await h.host.bridge.answerConsent(prompt.consentId, 'allow');
    const refused = await request.catch((e: ToolError) => e);
    expect(refused).toMatchObject({ code: 'service_unavailable', retryable: false });
    expect((refused as ToolError).message).toMatch(/could not start: the host cannot record it \(data folder unwritable/);
    const problem = await until(() => h.view().problems[0], 'the problem in the view');
    expect(problem).toMatchObject({ appName: 'Demo Fixture', agentName: 'unlucky', reason: 'data folder unwritable', message: expect.stringMatching(/ENOTDIR/) });
    expect(h.view().live).toEqual([]);
    expect(h.launcher.drivers).toEqual([]);
    await rm(h.bundles.bundlesDir);
    await mkdir(h.bundles.bundlesDir);
  });

  it('the consent queue is bounded per connection: past it demo.request is answered at once', async () => {
    const mine = connection();
    const waiting = Array.from({ length: 8 }, (_, i) => handle('demo.request', { app: FIXTURE_APP_ID, agent_name: `a${i}` }, mine.call).catch((e: ToolError) => e.code));
    const refused = await handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'one too many' }, mine.call).catch((e: ToolError) => e);
    expect(refused).toMatchObject({ code: 'service_unavailable', retryable: true });
    expect((refused as ToolError).message).toMatch(/at most 8/);
    // Another connection still gets its turn.
    const other = connection();
    const theirs = handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'other' }, other.call).catch((e: ToolError) => e.code);
    await until(() => (h.host.view().consentQueue === 8 ? true : undefined), 'the other connection to queue');
    expect(h.host.denyAllWaiting()).toBe(9);
    expect(await Promise.all([...waiting, theirs])).toEqual(Array(9).fill('consent_denied'));
    await until(() => (h.view().consent === null && h.view().consentQueue === 0 ? true : undefined), 'the queue to empty');
  });

  it('a client that leaves while queued leaves the queue', async () => {
    const leaving = connection();
    const request = handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'leaver' }, leaving.call);
    await until(() => h.host.view().consent ?? undefined, 'the dialog');
    leaving.disconnect();
    expect(await codeOf(request)).toBe('consent_denied');
  });
});

describe('demo.snapshot, demo.act', () => {
  it('snapshot lists the controls with stable refs; capture_unsafe lists nothing', async () => {
    const { token } = await allowed();
    const first = (await handle('demo.snapshot', { token })).elements;
    expect(first.map((e) => e.label)).toEqual(['Name', 'Password', 'Submit', 'Subscribe']);
    expect((await handle('demo.snapshot', { token })).elements.map((e) => e.ref)).toEqual(first.map((e) => e.ref));
    h.launcher.last.capture = 'unsafe';
    expect(await codeOf(handle('demo.snapshot', { token }))).toBe('capture_unsafe');
  });

  it('act: a receipt recorded before the answer; check 6 in order (capture state first, then ref, op, gate, key)', async () => {
    const { session, token } = await allowed();
    const elements = (await handle('demo.snapshot', { token })).elements;
    const { receipt_id } = await handle('demo.act', { token, ref: ref(elements, 'Name'), op: 'type', text: 'Ada' });
    expect(await receiptsOf(session)).toEqual([receipt_id]);
    expect(await codeOf(handle('demo.act', { token, ref: 'e-made-up', op: 'click' }))).toBe('invalid_arguments');
    expect(await codeOf(handle('demo.act', { token, ref: ref(elements, 'Submit'), op: 'type', text: 'x' }))).toBe('invalid_arguments');
    expect(await codeOf(handle('demo.act', { token, ref: ref(elements, 'Password'), op: 'type', text: 'x' }))).toBe('target_blocked');
    expect(await codeOf(handle('demo.act', { token, ref: ref(elements, 'Name'), op: 'press', key: 'hyper+q' }))).toBe('invalid_arguments');
    h.launcher.last.capture = 'unknown';
    expect(await codeOf(handle('demo.act', { token, ref: 'e-made-up', op: 'click' }))).toBe('capture_unsafe');
    expect(h.launcher.last.acts).toHaveLength(1);
  });
});

describe('demo.batch', () => {
  it('stops at the first failing step: the steps before it keep their receipts, the rest never run', async () => {
    const { session, token } = await allowed();
    const elements = (await handle('demo.snapshot', { token })).elements;
    const result = await handle('demo.batch', {
      token,
      steps: [
        { ref: ref(elements, 'Name'), op: 'type', text: 'a' },
        { ref: ref(elements, 'Subscribe'), op: 'click' },
        { ref: 'e-never-issued', op: 'click' },
        { ref: ref(elements, 'Submit'), op: 'click' },
      ],
    });
    expect(result).toMatchObject({ completed: 2, failed_step: 2, error_code: 'invalid_arguments' });
    expect(await receiptsOf(session)).toEqual(result.results.map((r) => r.receipt_id));
    expect(h.launcher.last.acts.map((a) => a.nodeKey)).toEqual(['n1', 'n4']);
  });

  it('a gate refusal and an unsafe target are failures of their step too', async () => {
    const { token } = await allowed();
    const elements = (await handle('demo.snapshot', { token })).elements;
    const blocked = await handle('demo.batch', { token, steps: [{ ref: ref(elements, 'Name'), op: 'click' }, { ref: ref(elements, 'Password'), op: 'click' }] });
    expect(blocked).toMatchObject({ completed: 1, failed_step: 1, error_code: 'target_blocked' });
    h.launcher.last.onAct = (input) => {
      if (input.nodeKey === 'n4') h.launcher.last.capture = 'unsafe';
    };
    const unsafe = await handle('demo.batch', { token, steps: [{ ref: ref(elements, 'Subscribe'), op: 'click' }, { ref: ref(elements, 'Submit'), op: 'click' }] });
    expect(unsafe).toMatchObject({ completed: 1, failed_step: 1, error_code: 'capture_unsafe' });
  });

  it('a kill during a batch fails the current step with session_killed; nothing runs after it', async () => {
    const { session, token } = await allowed();
    const elements = (await handle('demo.snapshot', { token })).elements;
    const driver = h.launcher.last;
    let release = () => {};
    driver.onAct = () => {
      if (driver.acts.length === 2) release = driver.hold();
    };
    const name = ref(elements, 'Name');
    const running = handle('demo.batch', { token, steps: Array.from({ length: 5 }, () => ({ ref: name, op: 'type' as const, text: 'x' })) });
    await until(() => (driver.held === 1 ? true : undefined), 'the third step to be in flight');
    await h.host.kill(session);
    const result = await running;
    expect(result).toMatchObject({ completed: 2, failed_step: 2, error_code: 'session_killed' });
    release();
    expect(await receiptsOf(session)).toEqual(result.results.map((r) => r.receipt_id));
    expect(await codeOf(handle('demo.snapshot', { token }))).toBe('session_killed');
  });
});

describe('demo.end, kill, killAll', () => {
  it('end seals complete; later calls are session_ended', async () => {
    const { token } = await allowed();
    const ended = await handle('demo.end', { token });
    expect(ended).toMatchObject({ ended: true, bundle_state: 'complete' });
    expect((await h.bundles.get(ended.bundle_id)).summary.state).toBe('complete');
    expect(await codeOf(handle('demo.snapshot', { token }))).toBe('session_ended');
    expect(await codeOf(handle('demo.end', { token }))).toBe('session_ended');
  });

  it('killAll stops every live session; each bundle sealed killed; the view empties at once', async () => {
    const [a, b] = [await allowed('a'), await allowed('b')];
    expect(h.host.view().live).toHaveLength(2);
    const stopped = h.host.killAll();
    expect(h.view().live).toEqual([]);
    expect(await stopped).toBe(2);
    for (const { token } of [a, b]) expect(await codeOf(handle('demo.snapshot', { token }))).toBe('session_killed');
    expect((await h.bundles.list()).map((s) => [s.state, s.reason])).toEqual([['killed', 'kill control'], ['killed', 'kill control']]);
  });

  it('Demo mode off: every method is demo_disabled; live sessions end killed', async () => {
    const { token } = await allowed();
    await h.host.bridge.saveSettings({ ...h.settings.settings, demoMode: false });
    expect(await codeOf(handle('demo.apps', {}))).toBe('demo_disabled');
    await h.host.bridge.saveSettings({ ...h.settings.settings, demoMode: true });
    expect(await codeOf(handle('demo.snapshot', { token }))).toBe('session_killed');
    expect((await h.bundles.list())[0]).toMatchObject({ state: 'killed', reason: 'demo mode off' });
  });
});
