// The host's core over its real socket, with the real client, a real Chromium driving the
// fixture app, and real bundles on disk. Consent is answered through the host's bridge, as
// the UI does.
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../contract/errors.js';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import type { SnapshotElement } from '../contract/types.js';
import { DemoClient } from '../client/client.js';
import { verifyBundle } from '../bundle/index.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import type { HostView } from './bridge.js';
import { startHostCore, type HostCore } from './start-host.js';

let core: HostCore;
let client: DemoClient;
let dataDir: string;
let latest: HostView;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-host-'));
  core = await startHostCore({
    dataDir,
    socketPath: path.join(dataDir, 'run', 'agent-demo.sock'),
    fixtures: true,
    launcher: createChromiumLauncher(),
    answeredBy: 'host test',
  });
  core.host.bridge.subscribe((view) => (latest = view));
  client = await DemoClient.connect(core.socket.socketPath);
});

afterAll(async () => {
  await client?.close();
  await core?.stop();
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return error.code;
    throw error;
  }
  return 'ok';
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Requests a session and answers its dialog as the person would. */
async function openSession(answer: 'allow' | 'deny' = 'allow', agent = 'test agent') {
  const request = client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: agent });
  const prompt = await waitFor(() => (latest.consent?.agentName === agent ? latest.consent : undefined), 'the consent dialog');
  expect(prompt).toMatchObject({ appId: FIXTURE_APP_ID, appName: 'Demo Fixture', agentName: agent });
  await core.host.bridge.answerConsent(prompt.consentId, answer);
  return request;
}

async function armedSnapshot(token: string): Promise<SnapshotElement[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      return (await client.call('demo.snapshot', { token })).elements;
    } catch (error) {
      if (!(error instanceof ToolError) || error.code !== 'not_armed' || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function find(elements: SnapshotElement[], role: string, label: string): SnapshotElement {
  const element = elements.find((e) => e.role === role && e.label === label);
  if (!element) throw new Error(`no ${role} "${label}" among ${elements.map((e) => `${e.role} "${e.label}"`).join(', ')}`);
  return element;
}

describe('host core', () => {
  it('lists the fixture app', async () => {
    expect((await client.call('demo.apps', {})).apps).toContainEqual({ id: FIXTURE_APP_ID, name: 'Demo Fixture' });
  });

  it('refuses an unknown app before asking anyone', async () => {
    expect(await codeOf(client.call('demo.request', { app: 'app.nope', agent_name: 'x' }))).toBe('unknown_app');
  });

  it('runs a whole session: allow, snapshot, type, click, see the greeting, end, bundle sealed complete', async () => {
    const granted = await openSession();
    expect(granted.app).toBe(FIXTURE_APP_ID);
    expect(latest.live.map((s) => s.sessionId)).toContain(granted.session);

    const elements = await armedSnapshot(granted.token);
    const name = find(elements, 'textbox', 'Name');
    expect(name.ops).toEqual(['click', 'type', 'press']);
    const typed = await client.call('demo.act', { token: granted.token, ref: name.ref, op: 'type', text: 'Ada' });
    expect(typed.receipt_id).toMatch(/^r-/);
    const submit = find(elements, 'button', 'Submit');
    await client.call('demo.act', { token: granted.token, ref: submit.ref, op: 'click' });

    const after = await armedSnapshot(granted.token);
    expect(after.map((e) => e.label)).toContain('Hello, Ada!');
    // Refs are stable while their element lives.
    expect(find(after, 'textbox', 'Name').ref).toBe(name.ref);

    const ended = await client.call('demo.end', { token: granted.token });
    expect(ended).toEqual({ ended: true, bundle_id: expect.any(String), bundle_state: 'complete' });
    expect(await codeOf(client.call('demo.snapshot', { token: granted.token }))).toBe('session_ended');

    const bundleDir = path.join(dataDir, 'bundles', ended.bundle_id);
    expect(await verifyBundle(bundleDir)).toMatchObject({ ok: true });
    const detail = await core.host.bridge.getBundle(ended.bundle_id);
    expect(detail.summary.state).toBe('complete');
    expect(detail.steps.map((s) => [s.op, s.label, s.text])).toEqual([
      ['type', 'Name', 'Ada'],
      ['click', 'Submit', undefined],
    ]);
  });

  it('kill control: token revoked at once, next call session_killed, bundle sealed killed', async () => {
    const granted = await openSession();
    const elements = await armedSnapshot(granted.token);
    await core.host.bridge.kill(granted.session);
    expect(await codeOf(client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Submit').ref, op: 'click' }))).toBe('session_killed');
    expect(await codeOf(client.call('demo.end', { token: granted.token }))).toBe('session_killed');
    const bundles = await core.bundles.list();
    const bundle = bundles.find((b) => b.sessionId === granted.session);
    expect(bundle).toMatchObject({ state: 'killed', reason: 'kill control' });
  });

  it('deny: consent_denied, no token, no bundle', async () => {
    const before = (await readdir(path.join(dataDir, 'bundles')).catch(() => [])).length;
    expect(await codeOf(openSession('deny'))).toBe('consent_denied');
    expect((await readdir(path.join(dataDir, 'bundles')).catch(() => [])).length).toBe(before);
  });

  it('refuses secure fields, stale refs and other sessions refs; an unknown token is invalid_token', async () => {
    const granted = await openSession();
    const elements = await armedSnapshot(granted.token);
    const password = find(elements, 'textbox', 'Password');
    expect(await codeOf(client.call('demo.act', { token: granted.token, ref: password.ref, op: 'type', text: 'hunter2' }))).toBe('target_blocked');
    expect(await codeOf(client.call('demo.act', { token: granted.token, ref: 'e-made-up', op: 'click' }))).toBe('invalid_arguments');
    expect(await codeOf(client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Submit').ref, op: 'type', text: 'x' }))).toBe('invalid_arguments');
    expect(await codeOf(client.call('demo.snapshot', { token: 'not-a-token' }))).toBe('invalid_token');
    await client.call('demo.end', { token: granted.token });
  });

  it('Go private: the target stops being capture-safe and nothing is listed', async () => {
    const granted = await openSession();
    const elements = await armedSnapshot(granted.token);
    await client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Go private').ref, op: 'click' });
    expect(await codeOf(client.call('demo.snapshot', { token: granted.token }))).toBe('capture_unsafe');
    expect(await codeOf(client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Submit').ref, op: 'click' }))).toBe('capture_unsafe');
    await client.call('demo.end', { token: granted.token });
  });

  it('a batch runs its steps in order and stops at the first failure', async () => {
    const granted = await openSession();
    const elements = await armedSnapshot(granted.token);
    const name = find(elements, 'textbox', 'Name');
    const result = await client.call('demo.batch', {
      token: granted.token,
      steps: [
        { ref: name.ref, op: 'type', text: 'Grace' },
        { ref: find(elements, 'button', 'Submit').ref, op: 'click' },
      ],
    });
    expect(result).toMatchObject({ completed: 2, failed_step: null, error_code: null });
    expect(result.results).toHaveLength(2);
    expect((await armedSnapshot(granted.token)).map((e) => e.label)).toContain('Hello, Grace!');
    await client.call('demo.end', { token: granted.token });
  });
});
