// The contract (agent-demo-v1.md) and HOST-SPEC sections 1 to 3, one row per rule, over the
// real socket: the real host core, a real Chromium driving the fixture, the real client, and
// raw JSON-RPC lines where the client would refuse to send them. Every error code of the
// contract is produced here; the last test checks that none was left out.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../contract/errors.js';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { MAX_LINE_BYTES } from '../contract/methods.js';
import type { SnapshotElement, Step } from '../contract/types.js';
import { callOnce, checkResult, DemoClient } from '../client/client.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import {
  answer, armedSnapshot, codeOf, errorOf, evaluate, find, openSession, rawError, RawPeer, startTestCore, waitFor, type TestCore,
} from '../host/harness.test-support.js';

/** Codes this file has seen the host (or the client against it) produce. */
const covered = new Set<string>();

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  expect(await codeOf(promise)).toBe(code);
  covered.add(code);
}

function rawCode(answer: Record<string, unknown>, rpc: number, code: string, id: unknown): void {
  expect(rawError(answer)).toEqual({ id, rpc, code });
  covered.add(code);
}

let t: TestCore;
let peer: RawPeer;
let live: { token: string; session: string; elements: SnapshotElement[] };
let endedToken: string;
let killedToken: string;
let nextId = 1;

beforeAll(async () => {
  t = await startTestCore();
  peer = new RawPeer(t.core.socket.socketPath);
  const granted = await openSession(t);
  live = { ...granted, elements: await armedSnapshot(t.client, granted.token) };
  const ended = await openSession(t);
  await armedSnapshot(t.client, ended.token);
  await t.client.call('demo.end', { token: ended.token });
  endedToken = ended.token;
  const killed = await openSession(t);
  await t.core.host.bridge.kill(killed.session);
  killedToken = killed.token;
}, 60_000);

afterAll(async () => {
  peer?.close();
  await t?.stop();
});

const ref = (role: string, label: string) => find(live.elements, role, label).ref;

describe('check 1: frame and JSON-RPC shape (raw lines)', () => {
  const rows: [string, string, number, unknown][] = [
    ['not JSON', 'not json at all\n', -32700, null],
    ['not an object: an array (batches are not supported)', '[{"jsonrpc":"2.0","id":1,"method":"demo.apps"}]\n', -32600, null],
    ['not an object: a number', '42\n', -32600, null],
    ['not an object: null', 'null\n', -32600, null],
    ['jsonrpc missing', '{"id":"m1","method":"demo.apps"}\n', -32600, 'm1'],
    ['jsonrpc not 2.0', '{"jsonrpc":"1.0","id":"m2","method":"demo.apps"}\n', -32600, 'm2'],
    ['id of a wrong type', '{"jsonrpc":"2.0","id":{"x":1},"method":"demo.apps"}\n', -32600, null],
    ['method not a string', '{"jsonrpc":"2.0","id":"m3","method":7}\n', -32600, 'm3'],
  ];
  it.each(rows)('%s: answered with the JSON-RPC number and invalid_arguments', async (_rule, line, rpc, id) => {
    peer.send(line);
    rawCode(await peer.answerTo(id), rpc, 'invalid_arguments', id);
  });

  it('unknown method: -32601 with data.code unknown_method', async () => {
    rawCode(await peer.call('u1', 'demo.nope', {}), -32601, 'unknown_method', 'u1');
    rawCode(await peer.call('u2', 'demo.request.extra', { app: FIXTURE_APP_ID, agent_name: 'x' }), -32601, 'unknown_method', 'u2');
  });

  it('a notification (no id) gets no answer and has no effect', async () => {
    peer.send(JSON.stringify({ jsonrpc: '2.0', method: 'demo.request', params: { app: FIXTURE_APP_ID, agent_name: 'notifier' } }) + '\n');
    peer.send(JSON.stringify({ jsonrpc: '2.0', method: 'demo.end', params: { token: live.token } }) + '\n');
    const answer = await peer.call('after-notes', 'demo.apps', {});
    expect(answer['result']).toBeDefined();
    expect(peer.received).toEqual([]);
    expect(t.view().consent).toBeNull();
    expect(await codeOf(t.client.call('demo.snapshot', { token: live.token }))).toBe('ok');
  });

  it('string and number ids are echoed; several requests in flight are each answered once', async () => {
    peer.send(
      ['"s-id"', '17', '18'].map((id) => `{"jsonrpc":"2.0","id":${id},"method":"demo.apps","params":{}}\n`).join(''),
    );
    const answers = await Promise.all([peer.answerTo('s-id'), peer.answerTo(17), peer.answerTo(18)]);
    expect(answers.every((a) => a['result'] !== undefined)).toBe(true);
  });

  it('a line over 1 MiB: invalid_arguments, then the connection is closed; the host lives on', async () => {
    const big = new RawPeer(t.core.socket.socketPath);
    big.send('{"jsonrpc":"2.0","id":1,"method":"demo.apps","params":{"pad":"' + 'x'.repeat(MAX_LINE_BYTES) + '"}}\n');
    rawCode(await big.answerTo(null), -32600, 'invalid_arguments', null);
    await big.closed;
    expect((await t.client.call('demo.apps', {})).apps.length).toBeGreaterThan(0);
  });
});

describe('check 2: params against the contract (raw lines; -32602 invalid_arguments)', () => {
  const typeA: Step = { ref: 'r', op: 'type', text: 'a' };
  const rows: [string, string, (token: string) => unknown][] = [
    ['demo.apps params not an object', 'demo.apps', () => []],
    ['demo.request without params', 'demo.request', () => undefined],
    ['demo.request without agent_name', 'demo.request', () => ({ app: FIXTURE_APP_ID })],
    ['demo.request app of a wrong type', 'demo.request', () => ({ app: 1, agent_name: 'x' })],
    ['demo.snapshot without token', 'demo.snapshot', () => ({})],
    ['demo.snapshot token of a wrong type', 'demo.snapshot', () => ({ token: 5 })],
    ['demo.act without op', 'demo.act', (token) => ({ token, ref: 'r' })],
    ['demo.act unknown op', 'demo.act', (token) => ({ token, ref: 'r', op: 'hover' })],
    ['demo.act type without text', 'demo.act', (token) => ({ token, ref: 'r', op: 'type' })],
    ['demo.act press without key', 'demo.act', (token) => ({ token, ref: 'r', op: 'press' })],
    ['demo.act text of a wrong type', 'demo.act', (token) => ({ token, ref: 'r', op: 'type', text: 5 })],
    ['demo.act ref of a wrong type', 'demo.act', (token) => ({ token, ref: ['r'], op: 'click' })],
    ['demo.batch of 0 steps', 'demo.batch', (token) => ({ token, steps: [] })],
    ['demo.batch of 21 steps', 'demo.batch', (token) => ({ token, steps: Array.from({ length: 21 }, () => typeA) })],
    ['demo.batch steps not an array', 'demo.batch', (token) => ({ token, steps: 'x' })],
    ['demo.batch step 3 type without text', 'demo.batch', (token) => ({ token, steps: [typeA, typeA, { ref: 'r', op: 'type' }] })],
    ['demo.batch step 2 press without key', 'demo.batch', (token) => ({ token, steps: [typeA, { ref: 'r', op: 'press' }] })],
    ['demo.end token null', 'demo.end', () => ({ token: null })],
  ];
  it.each(rows)('%s', async (_rule, method, params) => {
    const id = nextId++;
    rawCode(await peer.call(id, method, params(live.token)), -32602, 'invalid_arguments', id);
  });

  it('params are checked before the token: a bad param with a live token, nothing runs', async () => {
    const before = (await t.core.host.bridge.listBundles()).find((b) => b.sessionId === live.session)?.steps;
    const id = nextId++;
    const name = ref('textbox', 'Name');
    const answer = await peer.call(id, 'demo.batch', { token: live.token, steps: [{ ref: name, op: 'type', text: 'a' }, { ref: name, op: 'type' }] });
    rawCode(answer, -32602, 'invalid_arguments', id);
    expect((answer['error'] as { message: string }).message).toMatch(/steps\[1\].*text/);
    expect((await t.core.host.bridge.listBundles()).find((b) => b.sessionId === live.session)?.steps).toBe(before);
  });

  it('the client refuses 0 and 21 steps before connecting', async () => {
    const nowhere = path.join(t.dataDir, 'no-such.sock');
    await expectCode(callOnce('demo.batch', { token: live.token, steps: [] }, { socketPath: nowhere }), 'invalid_arguments');
    const steps = Array.from({ length: 21 }, () => ({ ref: 'r', op: 'click' as const }));
    await expectCode(callOnce('demo.batch', { token: live.token, steps }, { socketPath: nowhere }), 'invalid_arguments');
    // and with no host there at all, a well-formed call is service_unavailable
    await expectCode(callOnce('demo.apps', {}, { socketPath: nowhere }), 'service_unavailable');
  });
});

describe('every method, over the client', () => {
  it('demo.apps lists the fixture', async () => {
    expect((await t.client.call('demo.apps', {})).apps).toContainEqual({ id: FIXTURE_APP_ID, name: 'Demo Fixture' });
  });

  it('demo.snapshot lists the fixture controls with ops that follow role and state', async () => {
    const elements = await armedSnapshot(t.client, live.token);
    expect(find(elements, 'textbox', 'Name').ops).toEqual(['click', 'type', 'press']);
    expect(find(elements, 'button', 'Submit').ops).toContain('click');
    expect(find(elements, 'checkbox', 'Subscribe').ops).toContain('click');
    expect(find(elements, 'link', 'Help').ops).toContain('click');
  });

  it('demo.act: type, press, click each answer a receipt recorded before the answer', async () => {
    const name = ref('textbox', 'Name');
    const receipts = [
      await t.client.call('demo.act', { token: live.token, ref: name, op: 'type', text: '1e3' }),
      await t.client.call('demo.act', { token: live.token, ref: name, op: 'press', key: 'backspace' }),
      await t.client.call('demo.act', { token: live.token, ref: ref('checkbox', 'Subscribe'), op: 'click' }),
    ].map((r) => r.receipt_id);
    const detail = await t.core.host.bridge.getBundle((await t.core.host.bridge.listBundles()).find((b) => b.sessionId === live.session)!.bundleId);
    expect(detail.steps.map((s) => s.receiptId)).toEqual(expect.arrayContaining(receipts));
    expect(await evaluate(t.launcher.opened[0]!, "document.getElementById('name').value")).toBe('1e');
  });

  it('demo.batch of 1 and of 20 steps run in full', async () => {
    const name = ref('textbox', 'Name');
    const one = await t.client.call('demo.batch', { token: live.token, steps: [{ ref: name, op: 'press', key: 'ctrl+a' }] });
    expect(one).toMatchObject({ completed: 1, failed_step: null, error_code: null });
    const twenty = await t.client.call('demo.batch', { token: live.token, steps: Array.from({ length: 20 }, (_, i) => ({ ref: name, op: 'type' as const, text: String(i % 10) })) });
    expect(twenty).toMatchObject({ completed: 20, failed_step: null, error_code: null });
    expect(twenty.results).toHaveLength(20);
    expect(await evaluate(t.launcher.opened[0]!, "document.getElementById('name').value")).toBe('1e01234567890123456789'); // type types at the field's end
  });
});

describe('checks 4 to 6 and the codes they give', () => {
  it('invalid_token: unknown, empty, and an altered token', async () => {
    await expectCode(t.client.call('demo.snapshot', { token: 'not-a-token' }), 'invalid_token');
    await expectCode(t.client.call('demo.end', { token: '' }), 'invalid_token');
    await expectCode(t.client.call('demo.act', { token: live.token + 'x', ref: ref('button', 'Submit'), op: 'click' }), 'invalid_token');
  });

  it('session_ended after demo.end, for every method with a token', async () => {
    await expectCode(t.client.call('demo.snapshot', { token: endedToken }), 'session_ended');
    await expectCode(t.client.call('demo.act', { token: endedToken, ref: 'e-x', op: 'click' }), 'session_ended');
    await expectCode(t.client.call('demo.batch', { token: endedToken, steps: [{ ref: 'e-x', op: 'click' }] }), 'session_ended');
    await expectCode(t.client.call('demo.end', { token: endedToken }), 'session_ended');
  });

  it('session_killed after the kill control, for every method with a token', async () => {
    await expectCode(t.client.call('demo.snapshot', { token: killedToken }), 'session_killed');
    await expectCode(t.client.call('demo.act', { token: killedToken, ref: 'e-x', op: 'click' }), 'session_killed');
    await expectCode(t.client.call('demo.batch', { token: killedToken, steps: [{ ref: 'e-x', op: 'click' }] }), 'session_killed');
    await expectCode(t.client.call('demo.end', { token: killedToken }), 'session_killed');
  });

  it('unknown_app before anyone is asked', async () => {
    await expectCode(t.client.call('demo.request', { app: 'app.nope', agent_name: 'x' }), 'unknown_app');
    expect(t.view().consent).toBeNull();
  });

  it('consent_denied when the person says Deny', async () => {
    const request = t.client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'denied agent' });
    await answer(t, 'denied agent', 'deny');
    await expectCode(request, 'consent_denied');
  });

  it('not_armed until armed (arming held), for every method with a token, before any ref check', async () => {
    const release = t.launcher.hold();
    try {
      const granted = await openSession(t);
      const notArmed = await errorOf(t.client.call('demo.snapshot', { token: granted.token }));
      expect(notArmed.code).toBe('not_armed');
      expect(notArmed.retryable).toBe(true);
      await expectCode(t.client.call('demo.act', { token: granted.token, ref: 'e-made-up', op: 'click' }), 'not_armed');
      await expectCode(t.client.call('demo.batch', { token: granted.token, steps: [{ ref: 'e-made-up', op: 'click' }] }), 'not_armed');
      release();
      await armedSnapshot(t.client, granted.token);
      await t.client.call('demo.end', { token: granted.token });
    } finally {
      release();
    }
  });

  it('demo.end while arming ends the session: sealed complete, nobody left attached', async () => {
    const release = t.launcher.hold();
    try {
      const granted = await openSession(t);
      const ended = await t.client.call('demo.end', { token: granted.token });
      expect(ended).toMatchObject({ ended: true, bundle_state: 'complete' });
      expect(t.view().live.map((s) => s.sessionId)).not.toContain(granted.session);
      release();
      await expectCode(t.client.call('demo.snapshot', { token: granted.token }), 'session_ended');
      expect((await t.core.bundles.get(ended.bundle_id)).summary).toMatchObject({ state: 'complete', steps: 0 });
    } finally {
      release();
    }
  });

  it('check 6 in order: capture_unsafe before an unknown ref; unknown ref and unlisted op are invalid_arguments; a gate is target_blocked', async () => {
    await expectCode(t.client.call('demo.act', { token: live.token, ref: 'e-made-up', op: 'click' }), 'invalid_arguments');
    const unlisted = await errorOf(t.client.call('demo.act', { token: live.token, ref: ref('button', 'Submit'), op: 'type', text: 'x' }));
    expect(unlisted.code).toBe('invalid_arguments');
    expect(unlisted.message).toMatch(/does not offer "type"/);
    await expectCode(t.client.call('demo.act', { token: live.token, ref: ref('textbox', 'Password'), op: 'type', text: 'x' }), 'target_blocked');
    const badKey = await errorOf(t.client.call('demo.act', { token: live.token, ref: ref('textbox', 'Name'), op: 'press', key: 'hyper+q' }));
    expect(badKey.code).toBe('invalid_arguments');
    expect(badKey.message).toMatch(/modifier/);

    const other = await openSession(t);
    const elements = await armedSnapshot(t.client, other.token);
    // another session's ref is unknown here
    await expectCode(t.client.call('demo.act', { token: other.token, ref: ref('button', 'Submit'), op: 'click' }), 'invalid_arguments');
    await t.client.call('demo.act', { token: other.token, ref: find(elements, 'button', 'Go private').ref, op: 'click' });
    await expectCode(t.client.call('demo.snapshot', { token: other.token }), 'capture_unsafe');
    await expectCode(t.client.call('demo.act', { token: other.token, ref: 'e-made-up', op: 'click' }), 'capture_unsafe');
    // In a batch, check 6 fails the step it concerns: a success naming the step and the code.
    expect(await t.client.call('demo.batch', { token: other.token, steps: [{ ref: 'e-made-up', op: 'click' }] })).toEqual({
      completed: 0, results: [], failed_step: 0, error_code: 'capture_unsafe',
    });
    await t.client.call('demo.end', { token: other.token });
  });

  it('malformed_response: the host never gives cause; the client judges the real host answers by the contract', async () => {
    const id = nextId++;
    const answerLine = await peer.call(id, 'demo.snapshot', { token: live.token });
    const result = answerLine['result'] as Record<string, unknown>;
    expect(() => checkResult('demo.snapshot', result)).not.toThrow();
    // Altered in transit, the same answer is refused: without its capture_state fail-closed, without elements as malformed.
    expect(() => checkResult('demo.snapshot', { ...result, capture_state: undefined })).toThrow(expect.objectContaining({ code: 'capture_unsafe' }));
    const { elements: _dropped, ...withoutElements } = result;
    let code = '';
    try {
      checkResult('demo.snapshot', withoutElements);
    } catch (error) {
      code = (error as { code: string }).code;
    }
    expect(code).toBe('malformed_response');
    covered.add(code);
  });
});

describe('gates', () => {
  it('a secure field is never typed into and its value appears in no snapshot and no bundle', async () => {
    const granted = await openSession(t);
    await armedSnapshot(t.client, granted.token);
    const secret = 'Sekr3t-value-91x7';
    await evaluate(t.launcher.last, `document.getElementById('password').value = ${JSON.stringify(secret)}; true`);
    const elements = await armedSnapshot(t.client, granted.token);
    expect(JSON.stringify(elements)).not.toContain(secret);
    const password = find(elements, 'textbox', 'Password');
    await expectCode(t.client.call('demo.act', { token: granted.token, ref: password.ref, op: 'type', text: 'more' }), 'target_blocked');
    await expectCode(t.client.call('demo.act', { token: granted.token, ref: password.ref, op: 'click' }), 'target_blocked');
    const batch = await t.client.call('demo.batch', { token: granted.token, steps: [{ ref: find(elements, 'textbox', 'Name').ref, op: 'type', text: 'n' }, { ref: password.ref, op: 'press', key: 'enter' }] });
    expect(batch).toMatchObject({ completed: 1, failed_step: 1, error_code: 'target_blocked' });
    expect(await evaluate(t.launcher.last, "document.getElementById('name').value")).toBe('n');
    await t.client.call('demo.act', { token: granted.token, ref: find(elements, 'textbox', 'Name').ref, op: 'type', text: 'visible' });
    const ended = await t.client.call('demo.end', { token: granted.token });
    expect(await grepFolder(path.join(t.dataDir, 'bundles', ended.bundle_id), secret)).toEqual([]);
    expect(await grepFolder(path.join(t.dataDir, 'bundles', ended.bundle_id), 'visible')).not.toEqual([]);
  });

  it('a denied app is target_blocked before anyone is asked', async () => {
    const settings = await t.core.host.bridge.getSettings();
    const example = { id: 'app.example', name: 'Example', url: 'http://127.0.0.1:9/', allowedOrigins: ['http://127.0.0.1:9'] };
    await t.core.host.bridge.saveSettings({ ...settings, apps: [example], deniedApps: ['app.example', FIXTURE_APP_ID] });
    try {
      await expectCode(t.client.call('demo.request', { app: 'app.example', agent_name: 'x' }), 'target_blocked');
      await expectCode(t.client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'x' }), 'target_blocked');
      await expectCode(t.client.call('demo.request', { app: 'app.other', agent_name: 'x' }), 'unknown_app');
      expect(t.view().consent).toBeNull();
    } finally {
      await t.core.host.bridge.saveSettings(settings);
    }
  });

  it('the host itself (an entry on its own origin) is target_blocked', async () => {
    const settings = await t.core.host.bridge.getSettings();
    const self = { id: 'app.self', name: 'Looks harmless', url: 'http://127.0.0.1:4455/ui/', allowedOrigins: ['http://127.0.0.1:4455'] };
    await t.core.host.bridge.saveSettings({ ...settings, apps: [self] });
    t.core.host.setOwnOrigins(['http://127.0.0.1:4455']);
    try {
      const blocked = await errorOf(t.client.call('demo.request', { app: 'app.self', agent_name: 'x' }));
      expect(blocked.code).toBe('target_blocked');
      expect(blocked.message).toMatch(/CutRight host itself/);
    } finally {
      t.core.host.setOwnOrigins([]);
      await t.core.host.bridge.saveSettings(settings);
    }
  });
});

describe('tokens and ended sessions', () => {
  it('the target page closing ends the session as killed (reason in the bundle)', async () => {
    const granted = await openSession(t);
    await armedSnapshot(t.client, granted.token);
    await t.launcher.last.close();
    await waitFor(async () => ((await codeOf(t.client.call('demo.snapshot', { token: granted.token }))) === 'session_killed' ? true : undefined), 'session_killed');
    covered.add('session_killed');
    const bundle = await waitFor(async () => (await t.core.bundles.list()).find((b) => b.sessionId === granted.session && b.state !== 'open'), 'the sealed bundle');
    expect(bundle).toMatchObject({ state: 'killed', reason: 'target closed' });
  });

  it('the target page crashing ends the session as killed', async () => {
    const granted = await openSession(t);
    await armedSnapshot(t.client, granted.token);
    void t.launcher.last.transport.send('Page.crash').catch(() => {});
    await waitFor(async () => ((await codeOf(t.client.call('demo.snapshot', { token: granted.token }))) === 'session_killed' ? true : undefined), 'session_killed');
    const bundle = await waitFor(async () => (await t.core.bundles.list()).find((b) => b.sessionId === granted.session && b.state !== 'open'), 'the sealed bundle');
    expect(bundle).toMatchObject({ state: 'killed', reason: 'target crashed' });
  });
});

describe('demo mode off (check 3)', () => {
  let saved: Awaited<ReturnType<TestCore['core']['host']['bridge']['getSettings']>>;
  beforeAll(async () => {
    saved = await t.core.host.bridge.getSettings();
    await t.core.host.bridge.saveSettings({ ...saved, demoMode: false });
  });
  afterAll(async () => {
    await t.core.host.bridge.saveSettings(saved);
  });

  it('every method is demo_disabled, demo.apps and demo.request included', async () => {
    await expectCode(t.client.call('demo.apps', {}), 'demo_disabled');
    await expectCode(t.client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'x' }), 'demo_disabled');
    await expectCode(t.client.call('demo.snapshot', { token: live.token }), 'demo_disabled');
    await expectCode(t.client.call('demo.act', { token: live.token, ref: 'e-x', op: 'click' }), 'demo_disabled');
    await expectCode(t.client.call('demo.batch', { token: live.token, steps: [{ ref: 'e-x', op: 'click' }] }), 'demo_disabled');
    await expectCode(t.client.call('demo.end', { token: live.token }), 'demo_disabled');
  });

  it('first failure wins: bad params and demo off is invalid_arguments; unknown method is unknown_method', async () => {
    let id = nextId++;
    rawCode(await peer.call(id, 'demo.act', { token: 'bad', ref: 'r', op: 'type' }), -32602, 'invalid_arguments', id);
    id = nextId++;
    rawCode(await peer.call(id, 'demo.batch', { token: 'bad', steps: [] }), -32602, 'invalid_arguments', id);
    id = nextId++;
    rawCode(await peer.call(id, 'demo.zzz', {}), -32601, 'unknown_method', id);
  });

  it('first failure wins: demo off and a bad, ended or unknown-app request is demo_disabled', async () => {
    await expectCode(t.client.call('demo.snapshot', { token: 'nope' }), 'demo_disabled');
    await expectCode(t.client.call('demo.snapshot', { token: endedToken }), 'demo_disabled');
    await expectCode(t.client.call('demo.request', { app: 'app.nope', agent_name: 'x' }), 'demo_disabled');
  });

  it('switching demo mode off killed the live session', async () => {
    await t.core.host.bridge.saveSettings(saved);
    await expectCode(t.client.call('demo.snapshot', { token: live.token }), 'session_killed');
    const bundle = (await t.core.bundles.list()).find((b) => b.sessionId === live.session);
    expect(bundle).toMatchObject({ state: 'killed', reason: 'demo mode off' });
  });
});

describe('host shutdown', () => {
  it('a call in flight when the host stops gets session_killed; later calls get service_unavailable', async () => {
    const granted = await openSession(t);
    const elements = await armedSnapshot(t.client, granted.token);
    const name = find(elements, 'textbox', 'Name').ref;
    const batch = t.client.call('demo.batch', { token: granted.token, steps: Array.from({ length: 20 }, () => ({ ref: name, op: 'type' as const, text: 'z' })) });
    // Its outcome is read at once: the batch may fail while the host is still stopping.
    const outcome = batch.then(
      (result) => result.error_code,
      (error: { code: string }) => error.code,
    );
    await new Promise((r) => setTimeout(r, 15));
    await t.core.stop();
    expect(await outcome).toBe('session_killed');
    const bundle = (await t.core.bundles.list()).find((b) => b.sessionId === granted.session);
    expect(bundle).toMatchObject({ state: 'killed', reason: 'host shutdown' });
    await expectCode(t.client.call('demo.apps', {}), 'service_unavailable');
    await expectCode(DemoClient.connect(t.core.socket.socketPath), 'service_unavailable');
  });
});

describe('permission_missing: a browser that cannot be started', () => {
  let broken: TestCore;
  beforeAll(async () => {
    broken = await startTestCore({ inner: createChromiumLauncher({ executablePath: '/nonexistent' }) });
  });
  afterAll(async () => {
    await broken?.stop();
  });

  it('calls get permission_missing naming the permission and the fix; demo.end ends it killed, with the reason in the bundle', async () => {
    const granted = await openSession(broken);
    const problem = await waitFor(async () => {
      const error = await errorOf(broken.client.call('demo.snapshot', { token: granted.token }));
      return error.code === 'not_armed' ? undefined : error;
    }, 'arming to fail');
    expect(problem.code).toBe('permission_missing');
    covered.add('permission_missing');
    expect(problem.message).toMatch(/permission missing: a browser/);
    expect(problem.message).toMatch(/--browser|CUTRIGHT_BROWSER/);
    await expectCode(broken.client.call('demo.act', { token: granted.token, ref: 'e-x', op: 'click' }), 'permission_missing');
    // Nothing ran: never `complete` with 0 steps, but killed, saying why.
    const ended = await broken.client.call('demo.end', { token: granted.token });
    expect(ended).toMatchObject({ ended: true, bundle_state: 'killed' });
    expect((await broken.core.bundles.get(ended.bundle_id)).summary).toMatchObject({ state: 'killed', steps: 0, reason: expect.stringMatching(/^target could not open: permission missing: a browser/) });
    await expectCode(broken.client.call('demo.snapshot', { token: granted.token }), 'session_killed');
  });
});

describe('a target page that does not load', () => {
  let d: TestCore;
  beforeAll(async () => {
    d = await startTestCore();
  });
  afterAll(async () => {
    await d?.stop();
  });

  it('ends the session killed at once, the reason in the bundle and in the next answer', async () => {
    const t = d;
    const down = { id: 'com.example.down', name: 'Down App', url: 'http://127.0.0.1:1/', allowedOrigins: ['http://127.0.0.1:1'] };
    const settings = await t.core.host.bridge.getSettings();
    await t.core.host.bridge.saveSettings({ ...settings, apps: [...settings.apps, down] });
    const request = t.client.call('demo.request', { app: down.id, agent_name: 'down agent' });
    const prompt = await waitFor(() => (t.view().consent?.appId === down.id ? (t.view().consent ?? undefined) : undefined), 'the consent dialog');
    await t.core.host.bridge.answerConsent(prompt.consentId, 'allow');
    const granted = await request;
    const killed = await waitFor(async () => {
      const error = await errorOf(t.client.call('demo.snapshot', { token: granted.token }));
      return error.code === 'not_armed' ? undefined : error;
    }, 'arming to fail');
    expect(killed.code).toBe('session_killed');
    expect(killed.message).toMatch(/target could not open: Down App could not be opened at http:\/\/127\.0\.0\.1:1\/: .*net::ERR_/);
    const bundle = await waitFor(async () => (await t.core.bundles.list()).find((b) => b.sessionId === granted.session && b.state !== 'open'), 'the bundle sealed');
    expect(bundle).toMatchObject({ state: 'killed', steps: 0, reason: expect.stringMatching(/^target could not open: Down App could not be opened/) });
    // The person is told too: the view keeps the problem with its reason.
    const problem = await waitFor(() => t.view().problems.find((p) => p.sessionId === granted.session), 'the problem in the view');
    expect(problem).toMatchObject({ sessionId: granted.session, reason: 'target could not open', message: expect.stringContaining('net::ERR_') });
  });
});

describe('coverage', () => {
  it('every error code of the contract was produced above', () => {
    expect([...ERROR_CODES].filter((code) => !covered.has(code))).toEqual([]);
  });
});

async function grepFolder(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(needle)) hits.push(file);
  }
  return hits;
}
