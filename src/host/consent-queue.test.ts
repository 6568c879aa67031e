// Consent over the real socket (HOST-SPEC section 3, demo.request): one dialog at a time,
// later requests wait in order; Deny, the client leaving (while shown or while queued) and the
// timeout end a request as consent_denied and leave nothing behind; consent is never
// remembered. Escape and closing the dialog are the renderer's: it sends answerConsent(id,
// 'deny'), the same path as Deny. The machine's own 600 s timer is tested with a simulated
// clock in src/session/machine.test.ts; here the host's timeout option is set short.
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { DemoClient } from '../client/client.js';
import { openBundleStore } from '../bundle/index.js';
import { startSocketServer, type SocketServer } from '../service/server.js';
import { SettingsStore } from '../settings/settings-store.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import { createCdpDriver } from '../targets/cdp-driver.js';
import type { HostView } from '../ui-protocol/index.js';
import { answer, armedSnapshot, codeOf, errorOf, openSession, startTestCore, waitFor, type TestCore } from './harness.test-support.js';
import { createHost, type Host } from './host.js';

async function bundleCount(dataDir: string): Promise<number> {
  return (await readdir(path.join(dataDir, 'bundles')).catch(() => [])).length;
}

/** Nothing is left of a refused request: no dialog, no queue, no live session, no bundle folder. */
async function expectNothingLeft(current: () => HostView, dataDir: string, bundlesBefore: number): Promise<void> {
  // The host coalesces view updates into one per event-loop turn: let this turn's go out.
  await new Promise((resolve) => setImmediate(resolve));
  const view = current();
  expect(view.consent).toBeNull();
  expect(view.consentQueue).toBe(0);
  expect(view.live).toEqual([]);
  expect(await bundleCount(dataDir)).toBe(bundlesBefore);
}

describe('consent queue (real core, real Chromium)', () => {
  let t: TestCore;
  const clients: DemoClient[] = [];
  beforeAll(async () => {
    t = await startTestCore();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t?.stop();
  });

  async function client(): Promise<DemoClient> {
    const c = await DemoClient.connect(t.core.socket.socketPath);
    clients.push(c);
    return c;
  }

  it('shows one dialog at a time; later requests wait their turn in order', async () => {
    const before = await bundleCount(t.dataDir);
    const [a, b, c] = [await client(), await client(), await client()];
    const first = a.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'first' });
    await waitFor(() => (t.view().consent?.agentName === 'first' ? true : undefined), 'the first dialog');
    const second = b.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'second' });
    await waitFor(() => (t.view().consentQueue === 1 ? true : undefined), 'the second request to queue');
    const third = c.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'third' });
    await waitFor(() => (t.view().consentQueue === 2 ? true : undefined), 'the third request to queue');
    expect(t.view().consent?.agentName).toBe('first');

    // A queued request cannot be answered before its turn.
    const queuedId = 'not-shown-yet';
    await expect(t.core.host.bridge.answerConsent(queuedId, 'allow')).rejects.toThrow(/no longer open/);

    for (const [agent, call, left] of [['first', first, 1], ['second', second, 0], ['third', third, 0]] as const) {
      await answer(t, agent, 'deny');
      expect(await codeOf(call)).toBe('consent_denied');
      if (agent !== 'third') {
        await waitFor(() => (t.view().consent !== null && t.view().consent?.agentName !== agent ? true : undefined), 'the next dialog');
        expect(t.view().consentQueue).toBe(left);
      }
    }
    await expectNothingLeft(t.view, t.dataDir, before);
  });

  it('Deny (also what Escape and closing the dialog send): consent_denied, and the same dialog cannot be answered twice', async () => {
    const before = await bundleCount(t.dataDir);
    const request = t.client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'denied' });
    const prompt = await waitFor(() => t.view().consent ?? undefined, 'the dialog');
    await t.core.host.bridge.answerConsent(prompt.consentId, 'deny');
    const denied = await errorOf(request);
    expect(denied.code).toBe('consent_denied');
    expect(denied.retryable).toBe(false);
    await expect(t.core.host.bridge.answerConsent(prompt.consentId, 'allow')).rejects.toThrow(/no longer open/);
    await expectNothingLeft(t.view, t.dataDir, before);
  });

  it('the client disconnecting while its dialog is shown ends it; the next one is shown', async () => {
    const before = await bundleCount(t.dataDir);
    const [leaver, stayer] = [await client(), await client()];
    const left = leaver.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'leaver' }).catch(() => 'gone');
    await waitFor(() => (t.view().consent?.agentName === 'leaver' ? true : undefined), 'the leaver dialog');
    const staying = stayer.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'stayer' });
    await waitFor(() => (t.view().consentQueue === 1 ? true : undefined), 'the stayer to queue');
    await leaver.close();
    await left;
    await waitFor(() => (t.view().consent?.agentName === 'stayer' ? true : undefined), 'the stayer dialog');
    expect(t.view().consentQueue).toBe(0);
    await answer(t, 'stayer', 'deny');
    expect(await codeOf(staying)).toBe('consent_denied');
    await expectNothingLeft(t.view, t.dataDir, before);
  });

  it('the client disconnecting while queued leaves the queue; it is never shown', async () => {
    const before = await bundleCount(t.dataDir);
    const [shown, queued] = [await client(), await client()];
    const showing = shown.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'shown' });
    await waitFor(() => (t.view().consent?.agentName === 'shown' ? true : undefined), 'the shown dialog');
    const waiting = queued.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'queued' }).catch(() => 'gone');
    await waitFor(() => (t.view().consentQueue === 1 ? true : undefined), 'the queued request');
    await queued.close();
    await waiting;
    await waitFor(() => (t.view().consentQueue === 0 ? true : undefined), 'the queue to empty');
    expect(t.view().consent?.agentName).toBe('shown');
    await answer(t, 'shown', 'deny');
    expect(await codeOf(showing)).toBe('consent_denied');
    await expectNothingLeft(t.view, t.dataDir, before);
  });

  it('consent is never remembered: after an allowed session, the next request asks again', async () => {
    const granted = await openSession(t);
    await armedSnapshot(t.client, granted.token);
    const again = t.client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'again' });
    await waitFor(() => (t.view().consent?.agentName === 'again' ? true : undefined), 'a new dialog for the second request');
    await answer(t, 'again', 'deny');
    expect(await codeOf(again)).toBe('consent_denied');
    // the first session is untouched by the second's refusal
    expect(await codeOf(t.client.call('demo.snapshot', { token: granted.token }))).toBe('ok');
    await t.client.call('demo.end', { token: granted.token });
  });
});

describe('consent timeout (the host with a short consent timeout; no browser is started)', () => {
  let host: Host;
  let socket: SocketServer;
  let dataDir: string;
  let latest: HostView;
  const launcher = createChromiumLauncher();

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-consent-'));
    const settings = await SettingsStore.open(dataDir, [FIXTURE_APP_ID]);
    const bundles = await openBundleStore({ dataDir });
    host = createHost({
      settings,
      bundles,
      launcher,
      createDriver: (target, app) => createCdpDriver(target.transport, { allowedOrigins: app.allowedOrigins }),
      fixture: { id: FIXTURE_APP_ID, name: 'Demo Fixture', url: 'http://127.0.0.1:9/', allowedOrigins: ['http://127.0.0.1:9'] },
      answeredBy: 'consent test',
      consentTimeoutMs: 400,
    });
    host.bridge.subscribe((view) => (latest = view));
    socket = await startSocketServer({ socketPath: path.join(dataDir, 'run', 'agent-demo.sock'), handler: host });
  });
  afterAll(async () => {
    await host?.shutdown();
    await socket?.close();
  });

  it('no answer in time: consent_denied for the shown and the queued request (queue time counts); nothing left', async () => {
    const client = await DemoClient.connect(socket.socketPath);
    try {
      const started = Date.now();
      const shown = errorOf(client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'slow person' }));
      await waitFor(() => latest.consent ?? undefined, 'the dialog');
      const queued = errorOf(client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'behind' }));
      const [a, b] = await Promise.all([shown, queued]);
      expect([a.code, b.code]).toEqual(['consent_denied', 'consent_denied']);
      expect(a.message).toMatch(/timeout/);
      expect(Date.now() - started).toBeLessThan(5000);
      await waitFor(() => (latest.consent === null && latest.consentQueue === 0 ? true : undefined), 'the dialogs to go');
      await expectNothingLeft(() => latest, dataDir, 0);
    } finally {
      await client.close();
    }
  });

  it('host shutdown ends a waiting request as consent_denied', async () => {
    const client = await DemoClient.connect(socket.socketPath);
    try {
      const waiting = errorOf(client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'at shutdown' }));
      await waitFor(() => latest.consent ?? undefined, 'the dialog');
      await host.shutdown();
      const denied = await waiting;
      expect(denied.code).toBe('consent_denied');
      expect(denied.message).toMatch(/shut down/);
      expect(await codeOf(client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'late' }))).toBe('service_unavailable');
      await expectNothingLeft(() => latest, dataDir, 0);
    } finally {
      await client.close();
    }
  });
});
