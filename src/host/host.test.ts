// The host's core over its real socket, with the real client, a real Chromium driving the
// fixture app, and real bundles on disk. Consent is answered through the host's bridge, as
// the UI does.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { verifyBundle } from '../bundle/index.js';
import { armedSnapshot as armedSnapshotOf, codeOf, errorOf, find, startTestCore, waitFor, type TestCore } from './harness.test-support.js';

let t: TestCore;

beforeAll(async () => {
  t = await startTestCore();
});

afterAll(async () => {
  await t?.stop();
});

/** Requests a session and answers its dialog as the person would, checking what the dialog shows. */
async function requestAnswered(reply: 'allow' | 'deny' = 'allow', agent = 'test agent') {
  const request = t.client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: agent });
  const prompt = await waitFor(() => (t.view().consent?.agentName === agent ? (t.view().consent ?? undefined) : undefined), 'the consent dialog');
  expect(prompt).toMatchObject({ appId: FIXTURE_APP_ID, appName: 'Demo Fixture', agentName: agent });
  await t.core.host.bridge.answerConsent(prompt.consentId, reply);
  return request;
}

describe('host core', () => {
  it('lists the fixture app', async () => {
    expect((await t.client.call('demo.apps', {})).apps).toContainEqual({ id: FIXTURE_APP_ID, name: 'Demo Fixture' });
  });

  it('refuses an unknown app before asking anyone', async () => {
    expect(await codeOf(t.client.call('demo.request', { app: 'app.nope', agent_name: 'x' }))).toBe('unknown_app');
  });

  it('runs a whole session: allow, snapshot, type, click, see the greeting, end, bundle sealed complete', async () => {
    const granted = await requestAnswered();
    expect(granted.app).toBe(FIXTURE_APP_ID);
    expect(t.view().live.map((s) => s.sessionId)).toContain(granted.session);

    const elements = await armedSnapshotOf(t.client, granted.token);
    const name = find(elements, 'textbox', 'Name');
    expect(name.ops).toEqual(['click', 'type', 'press']);
    const typed = await t.client.call('demo.act', { token: granted.token, ref: name.ref, op: 'type', text: 'Ada' });
    expect(typed.receipt_id).toMatch(/^r-/);
    const submit = find(elements, 'button', 'Submit');
    await t.client.call('demo.act', { token: granted.token, ref: submit.ref, op: 'click' });

    const after = await armedSnapshotOf(t.client, granted.token);
    expect(after.map((e) => e.label)).toContain('Hello, Ada!');
    // Refs are stable while their element lives.
    expect(find(after, 'textbox', 'Name').ref).toBe(name.ref);

    const ended = await t.client.call('demo.end', { token: granted.token });
    expect(ended).toEqual({ ended: true, bundle_id: expect.any(String), bundle_state: 'complete' });
    expect(await codeOf(t.client.call('demo.snapshot', { token: granted.token }))).toBe('session_ended');

    const bundleDir = path.join(t.dataDir, 'bundles', ended.bundle_id);
    expect(await verifyBundle(bundleDir)).toMatchObject({ ok: true });
    const detail = await t.core.host.bridge.getBundle(ended.bundle_id);
    expect(detail.summary.state).toBe('complete');
    expect(detail.steps.map((s) => [s.op, s.label, s.text])).toEqual([
      ['type', 'Name', 'Ada'],
      ['click', 'Submit', undefined],
    ]);
  });

  it('kill control: token revoked at once, next call session_killed, bundle sealed killed', async () => {
    const granted = await requestAnswered();
    const elements = await armedSnapshotOf(t.client, granted.token);
    await t.core.host.bridge.kill(granted.session);
    expect(await codeOf(t.client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Submit').ref, op: 'click' }))).toBe('session_killed');
    expect(await codeOf(t.client.call('demo.end', { token: granted.token }))).toBe('session_killed');
    const bundles = await t.core.bundles.list();
    const bundle = bundles.find((b) => b.sessionId === granted.session);
    expect(bundle).toMatchObject({ state: 'killed', reason: 'kill control' });
  });

  it('deny: consent_denied, no token, no bundle', async () => {
    const before = (await readdir(path.join(t.dataDir, 'bundles')).catch(() => [])).length;
    expect(await codeOf(requestAnswered('deny'))).toBe('consent_denied');
    expect((await readdir(path.join(t.dataDir, 'bundles')).catch(() => [])).length).toBe(before);
  });

  it('refuses secure fields, stale refs and other sessions refs; an unknown token is invalid_token', async () => {
    const granted = await requestAnswered();
    const elements = await armedSnapshotOf(t.client, granted.token);
    const password = find(elements, 'textbox', 'Password');
    expect(await codeOf(t.client.call('demo.act', { token: granted.token, ref: password.ref, op: 'type', text: 'hunter2' }))).toBe('target_blocked');
    expect(await codeOf(t.client.call('demo.act', { token: granted.token, ref: 'e-made-up', op: 'click' }))).toBe('invalid_arguments');
    expect(await codeOf(t.client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Submit').ref, op: 'type', text: 'x' }))).toBe('invalid_arguments');
    expect(await codeOf(t.client.call('demo.snapshot', { token: 'not-a-token' }))).toBe('invalid_token');
    await t.client.call('demo.end', { token: granted.token });
  });

  it('Go private: the target stops being capture-safe and nothing is listed', async () => {
    const granted = await requestAnswered();
    const elements = await armedSnapshotOf(t.client, granted.token);
    await t.client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Go private').ref, op: 'click' });
    // The message says what is wrong and what the page needs, for every path that refuses.
    const snapshot = await errorOf(t.client.call('demo.snapshot', { token: granted.token }));
    expect(snapshot.code).toBe('capture_unsafe');
    expect(snapshot.message).toContain('the page declares its capture state "unsafe" (it needs <meta name="cutright-capture-state" content="safe">)');
    const act = await errorOf(t.client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Submit').ref, op: 'click' }));
    expect(act.code).toBe('capture_unsafe');
    expect(act.message).toContain('content="safe"');
    const unknownRef = await errorOf(t.client.call('demo.act', { token: granted.token, ref: 'e-made-up', op: 'click' }));
    expect(unknownRef.code).toBe('capture_unsafe');
    expect(unknownRef.message).toContain('content="safe"');
    await t.client.call('demo.end', { token: granted.token });
  });

  it('a batch runs its steps in order and stops at the first failure', async () => {
    const granted = await requestAnswered();
    const elements = await armedSnapshotOf(t.client, granted.token);
    const name = find(elements, 'textbox', 'Name');
    const result = await t.client.call('demo.batch', {
      token: granted.token,
      steps: [
        { ref: name.ref, op: 'type', text: 'Grace' },
        { ref: find(elements, 'button', 'Submit').ref, op: 'click' },
      ],
    });
    expect(result).toMatchObject({ completed: 2, failed_step: null, error_code: null });
    expect(result.results).toHaveLength(2);
    expect((await armedSnapshotOf(t.client, granted.token)).map((e) => e.label)).toContain('Hello, Grace!');
    await t.client.call('demo.end', { token: granted.token });
  });
});
