// One agent demo session end to end through the real host, the real cutright-ctl, the real
// UI and a real target in Chromium (issue: the walking skeleton).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { bundleList, ctl, errorCode, expect, find, snapshotWhenArmed, test } from './host-fixture.js';

const FIXTURE = 'app.orthiclabs.demo-fixture';

test('a session: request, allow, snapshot, type, submit, end, and a bundle sealed complete', async ({ host, ui, consentSurface, killSurface }) => {
  const apps = await ctl(host, 'apps');
  expect(apps.code).toBe(0);
  expect(apps.json['apps']).toContainEqual({ id: FIXTURE, name: 'Demo Fixture' });

  const request = ctl(host, 'request', `app=${FIXTURE}`, 'agent_name=e2e agent');
  const dialog = (await consentSurface()).getByRole('dialog', { name: /demo/i });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('e2e agent');
  await expect(dialog).toContainText('Demo Fixture');
  await expect(dialog.getByRole('button', { name: 'Deny', exact: true })).toBeFocused();
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  const granted = await request;
  expect(granted.code).toBe(0);
  expect(granted.json).toEqual({ session: expect.any(String), token: expect.any(String), app: FIXTURE });
  const token = granted.json['token'] as string;

  await expect((await killSurface()).getByRole('button', { name: 'Stop demo', exact: true })).toBeVisible();

  const elements = await snapshotWhenArmed(host, token);
  const name = find(elements, 'textbox', 'Name');
  expect(name.ops).toEqual(expect.arrayContaining(['click', 'type', 'press']));
  const typed = await ctl(host, 'act', `token=${token}`, `ref=${name.ref}`, 'op=type', 'text=Ada');
  expect(typed.code, JSON.stringify(typed.json)).toBe(0);
  expect(typed.json['receipt_id']).toEqual(expect.any(String));
  const submit = find(elements, 'button', 'Submit');
  const clicked = await ctl(host, 'act', `token=${token}`, `ref=${submit.ref}`, 'op=click');
  expect(clicked.code, JSON.stringify(clicked.json)).toBe(0);

  const after = await snapshotWhenArmed(host, token);
  expect(after.map((e) => e.label)).toContain('Hello, Ada!');

  const ended = await ctl(host, 'end', `token=${token}`);
  expect(ended.code).toBe(0);
  expect(ended.json).toEqual({ ended: true, bundle_id: expect.any(String), bundle_state: 'complete' });
  await expect(ui.getByRole('button', { name: 'Stop demo', exact: true })).toHaveCount(0);

  const later = await ctl(host, 'snapshot', `token=${token}`);
  expect(errorCode(later)).toBe('session_ended');

  expect(bundleList(host)).toEqual([expect.objectContaining({ bundleId: ended.json['bundle_id'], state: 'complete', steps: 2 })]);
});

test('Stop demo mid-session: the next call is session_killed and the bundle is sealed killed', async ({ host, ui, consentSurface, killSurface }) => {
  const request = ctl(host, 'request', `app=${FIXTURE}`, 'agent_name=killer test');
  await (await consentSurface()).getByRole('dialog', { name: /demo/i }).getByRole('button', { name: 'Allow', exact: true }).click();
  const token = (await request).json['token'] as string;
  const elements = await snapshotWhenArmed(host, token);
  const name = find(elements, 'textbox', 'Name');
  expect((await ctl(host, 'act', `token=${token}`, `ref=${name.ref}`, 'op=type', 'text=Bob')).code).toBe(0);

  await (await killSurface()).getByRole('button', { name: 'Stop demo', exact: true }).click();
  await expect(ui.getByRole('button', { name: 'Stop demo', exact: true })).toHaveCount(0);

  const next = await ctl(host, 'act', `token=${token}`, `ref=${name.ref}`, 'op=type', 'text=more');
  expect(next.code).toBe(1);
  expect(errorCode(next)).toBe('session_killed');
  const end = await ctl(host, 'end', `token=${token}`);
  expect(errorCode(end)).toBe('session_killed');

  expect(bundleList(host)).toEqual([expect.objectContaining({ state: 'killed', reason: 'kill control', steps: 1 })]);
});

test('Deny: consent_denied, no token, no bundle', async ({ host, ui, consentSurface }) => {
  const request = ctl(host, 'request', `app=${FIXTURE}`, 'agent_name=denied agent');
  await (await consentSurface()).getByRole('dialog', { name: /demo/i }).getByRole('button', { name: 'Deny', exact: true }).click();
  const denied = await request;
  expect(denied.code).toBe(1);
  expect(denied.json).toEqual({ error: { code: 'consent_denied', message: expect.any(String), retryable: false } });
  await expect(ui.getByRole('dialog')).toHaveCount(0);
  expect(bundleList(host)).toEqual([]);
  expect(await readdir(path.join(host.dataDir, 'bundles')).catch(() => [])).toEqual([]);
});
