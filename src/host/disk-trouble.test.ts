// Disk trouble during a live session (issue 4, item 6): a full disk or an unwritable data
// folder ends the session as killed with a clear reason, and nothing is marked sealed unless
// it is whole. The failures are real: writes to /dev/full fail with ENOSPC, and a bundle
// folder replaced by a file fails with ENOTDIR, even for root.
import { rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBundleStore, verifyBundle } from '../bundle/index.js';
import { armedSnapshot, errorOf, find, openSession, startTestCore, waitFor, type TestCore } from './harness.test-support.js';

let t: TestCore;

beforeAll(async () => {
  t = await startTestCore();
});

afterAll(async () => {
  await t?.stop();
});

async function liveBundleDir(session: string): Promise<string> {
  const bundles = await t.core.bundles.list();
  const bundle = bundles.find((b) => b.sessionId === session);
  if (!bundle) throw new Error(`no bundle for ${session}`);
  return path.join(t.core.bundles.bundlesDir, bundle.bundleId);
}

describe('disk trouble', () => {
  it('a full disk ends the live session killed ("disk full"); the agent gets session_killed; nothing is sealed half-written', async () => {
    const granted = await openSession(t);
    const elements = await armedSnapshot(t.client, granted.token);
    const name = find(elements, 'textbox', 'Name');
    await t.client.call('demo.act', { token: granted.token, ref: name.ref, op: 'type', text: 'before' });
    const dir = await liveBundleDir(granted.session);
    const events = path.join(dir, 'events.ndjson');
    await rename(events, `${events}.saved`);
    await symlink('/dev/full', events);

    const error = await errorOf(t.client.call('demo.act', { token: granted.token, ref: name.ref, op: 'type', text: 'after' }));
    expect(error.code).toBe('session_killed');
    expect(error.message).toMatch(/disk full/);
    // Over, its seal tried and failed: the person is told (a loaded machine may still be sealing
    // when the session leaves the live list, and a seal tried after space came back succeeds).
    await waitFor(() => (t.view().problems.some((p) => p.sessionId === granted.session) ? true : undefined), 'the session to end with its problem shown');
    expect((await errorOf(t.client.call('demo.snapshot', { token: granted.token }))).code).toBe('session_killed');
    // The end could not be written, so the bundle is not sealed: verify says so.
    expect(await verifyBundle(dir)).toMatchObject({ ok: false });

    // Space comes back: the next start seals what it finds as killed, and it verifies.
    await rm(events);
    await rename(`${events}.saved`, events);
    const nextStart = await openBundleStore({ dataDir: t.dataDir });
    const recovered = await nextStart.recoverUnsealed();
    expect(recovered).toContain(path.basename(dir));
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
    const detail = await nextStart.get(path.basename(dir));
    expect(detail.summary.state).toBe('killed');
    expect(detail.steps.map((s) => s.text)).toEqual(['before']);
  });

  it('an unwritable data folder ends the live session killed ("data folder unwritable")', async () => {
    const granted = await openSession(t);
    const elements = await armedSnapshot(t.client, granted.token);
    const dir = await liveBundleDir(granted.session);
    await rename(dir, `${dir}.moved`);
    await writeFile(dir, 'not a folder');
    const error = await errorOf(t.client.call('demo.act', { token: granted.token, ref: find(elements, 'button', 'Submit').ref, op: 'click' }));
    expect(error.code).toBe('session_killed');
    expect(error.message).toMatch(/data folder unwritable/);
    await waitFor(() => (t.view().problems.some((p) => p.sessionId === granted.session) ? true : undefined), 'the session to end with its problem shown');
    await rm(dir);
    await rename(`${dir}.moved`, dir);
  });
});
