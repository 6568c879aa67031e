// The Settings view in the web shell (issue 5, item 3): Demo mode, the app catalog and the
// denied apps, each checked through the real cutright-ctl against the real host, persisted
// across a host restart, and an invalid entry refused with nothing saved.
import type { Locator, Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bundleList, ctl, errorCode, expect, startHost, test, uiOf } from './host-fixture.js';
import { FIXTURE, allowedSession, consentDialog, requestShowing, screenshot, stopDemo } from './ui-helpers.js';

async function openSettings(ui: Page) {
  await ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const panel = ui.getByRole('region', { name: 'Settings' });
  await expect(panel.getByRole('switch', { name: 'Demo mode' })).toBeVisible();
  return panel;
}

async function save(ui: Page): Promise<void> {
  await ui.getByRole('button', { name: 'Save settings' }).click();
  await expect(ui.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
}

/** Fills the add-or-edit form's fields (the allowed origins only when given). */
async function fillApp(form: Locator, app: { id: string; name: string; url: string; origins?: string }): Promise<void> {
  await form.getByLabel('App id').fill(app.id);
  await form.getByLabel('Name', { exact: true }).fill(app.name);
  await form.getByLabel('URL').fill(app.url);
  if (app.origins !== undefined) await form.getByLabel('Allowed origins').fill(app.origins);
}

async function apps(host: Parameters<typeof ctl>[0]): Promise<unknown> {
  const result = await ctl(host, 'apps');
  expect(result.code, JSON.stringify(result.json)).toBe(0);
  return result.json['apps'];
}

/** A real web app on 127.0.0.1 for the catalog: one page with a button, declared capture-safe or not. */
async function startWebApp({ captureSafe = false } = {}): Promise<{ url: string; origin: string; server: Server }> {
  const declaration = captureSafe ? '<meta name="cutright-capture-state" content="safe">' : '';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Notes</title>${declaration}<h1>Notes</h1><button>New note</button>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/notes/`, origin, server };
}

test('Demo mode off refuses every call and kills the live session; on again works', async ({ host, ui }) => {
  await allowedSession(host, ui, 'mode agent');
  const settings = await openSettings(ui);
  const demoMode = settings.getByRole('switch', { name: 'Demo mode' });
  await expect(demoMode).toHaveAttribute('aria-checked', 'true');
  await demoMode.click();
  await expect(demoMode).toHaveAttribute('aria-checked', 'false');
  // A session is live: switching Demo mode off ends it, so the page asks first.
  await ui.getByRole('button', { name: 'Save settings' }).click();
  const question = settings.getByRole('alertdialog', { name: 'Turn Demo mode off?' });
  await expect(question).toContainText('A demo session is live: switching Demo mode off ends it now');
  await expect(question.getByRole('button', { name: 'Keep Demo mode on' })).toBeFocused();
  await question.getByRole('button', { name: 'Keep Demo mode on' }).click();
  await expect(question).toHaveCount(0);
  await expect(demoMode).toHaveAttribute('aria-checked', 'true');
  await expect(stopDemo(ui)).toBeVisible();
  expect(await apps(host)).toContainEqual({ id: FIXTURE, name: 'Demo Fixture' });

  await demoMode.click();
  await ui.getByRole('button', { name: 'Save settings' }).click();
  await question.getByRole('button', { name: 'Turn off and end the session' }).click();
  await expect(ui.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();

  expect(errorCode(await ctl(host, 'apps'))).toBe('demo_disabled');
  expect(errorCode(await ctl(host, 'request', `app=${FIXTURE}`, 'agent_name=late'))).toBe('demo_disabled');
  await expect(stopDemo(ui)).toHaveCount(0);
  await expect(ui.getByText('Demo mode off', { exact: true })).toBeVisible();
  expect(bundleList(host)).toEqual([expect.objectContaining({ state: 'killed', reason: 'demo mode off' })]);
  await ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sessions', exact: true }).click();
  await expect(ui.getByRole('region', { name: 'Sessions' }).getByRole('row').nth(1)).toContainText(/killed\s*demo mode off/);

  await openSettings(ui);
  await demoMode.click();
  await expect(demoMode).toHaveAttribute('aria-checked', 'true');
  await save(ui);
  expect(await apps(host)).toContainEqual({ id: FIXTURE, name: 'Demo Fixture' });
  await expect(ui.getByText('Demo mode on', { exact: true })).toBeVisible();
});

test('the app catalog: add, edit and remove an app; demo apps follows', async ({ host, ui, consentSurface }) => {
  const web = await startWebApp();
  try {
    const settings = await openSettings(ui);
    await settings.getByRole('button', { name: 'Add an app…' }).click();
    const form = settings.getByRole('group', { name: 'Add an app' });
    await fillApp(form, { id: 'com.example.notes', name: 'Notes', url: web.url, origins: `${web.origin}\nhttp://localhost:1` });
    // One save: adding the app saves the settings.
    await form.getByRole('button', { name: 'Add app' }).click();
    await expect(settings.getByRole('listitem').filter({ hasText: 'com.example.notes' })).toContainText(`${web.origin}, http://localhost:1`);
    await expect(ui.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
    expect(await apps(host)).toEqual([{ id: FIXTURE, name: 'Demo Fixture' }, { id: 'com.example.notes', name: 'Notes' }]);

    // The new app can be asked for: the consent dialog names it.
    const { answer } = await requestShowing(host, ui, 'catalog agent', 'com.example.notes');
    const consent = consentDialog(await consentSurface());
    await expect(consent).toContainText('Notes');
    await consent.getByRole('button', { name: 'Deny', exact: true }).click();
    expect(errorCode(await answer)).toBe('consent_denied');

    await settings.getByRole('button', { name: 'Edit Notes' }).click();
    const edit = settings.getByRole('group', { name: 'Edit Notes' });
    await expect(edit.getByLabel('URL')).toHaveValue(web.url);
    await edit.getByLabel('Name', { exact: true }).fill('Team Notes');
    await edit.getByRole('button', { name: 'Update app' }).click();
    await expect(ui.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
    expect(await apps(host)).toEqual([{ id: FIXTURE, name: 'Demo Fixture' }, { id: 'com.example.notes', name: 'Team Notes' }]);

    await settings.getByRole('button', { name: 'Remove Team Notes' }).click();
    await expect(settings.getByRole('listitem').filter({ hasText: 'com.example.notes' })).toHaveCount(0);
    await save(ui);
    expect(await apps(host)).toEqual([{ id: FIXTURE, name: 'Demo Fixture' }]);
  } finally {
    web.server.close();
  }
});

test('the fixture is in the catalog, marked built in and not editable', async ({ ui }) => {
  const settings = await openSettings(ui);
  const fixture = settings.getByRole('listitem').filter({ hasText: FIXTURE });
  await expect(fixture).toContainText('Demo Fixture');
  await expect(fixture).toContainText('Built in: the test fixture, listed because fixtures are on');
  await expect(fixture.getByRole('button')).toHaveCount(0);
});

test('Check this app opens the app unseen and says whether it is capture-safe, and why not', async ({ host, ui }, testInfo) => {
  const plain = await startWebApp();
  const declared = await startWebApp({ captureSafe: true });
  try {
    const settings = await openSettings(ui);
    await settings.getByRole('button', { name: 'Add an app…' }).click();
    const form = settings.getByRole('group', { name: 'Add an app' });
    await fillApp(form, { id: 'com.example.notes', name: 'Notes', url: plain.url });
    await form.getByRole('button', { name: 'Check this app' }).click();
    const outcome = form.getByRole('status');
    await expect(outcome).toContainText('Not capture-safe:', { timeout: 30_000 });
    await expect(outcome).toContainText('cutright-capture-state');
    await screenshot(ui, testInfo.outputPath('settings-check-app-unsafe.png'));

    // An edit makes the answer stale; the declared page is capture-safe.
    await form.getByLabel('URL').fill(declared.url);
    await form.getByLabel('Allowed origins').fill(declared.origin);
    await expect(outcome).toHaveText('');
    await form.getByRole('button', { name: 'Check this app' }).click();
    await expect(outcome).toContainText(`Capture-safe: a demo session of ${declared.url} can be recorded.`, { timeout: 30_000 });

    // Checking saves nothing, starts no session and leaves no bundle.
    expect(await apps(host)).toEqual([{ id: FIXTURE, name: 'Demo Fixture' }]);
    expect(bundleList(host)).toEqual([]);
    await expect(stopDemo(ui)).toHaveCount(0);
  } finally {
    plain.server.close();
    declared.server.close();
  }
});

test('a denied app is refused with target_blocked until it is allowed again', async ({ host, ui, consentSurface }) => {
  const settings = await openSettings(ui);
  await settings.getByLabel('Add a denied app (its id)').fill(FIXTURE);
  await settings.getByRole('button', { name: 'Add to denied apps' }).click();
  await expect(settings.getByRole('button', { name: `Remove ${FIXTURE} from denied apps` })).toBeVisible();
  await save(ui);

  const blocked = await ctl(host, 'request', `app=${FIXTURE}`, 'agent_name=blocked agent');
  expect(blocked.code).toBe(1);
  expect(errorCode(blocked)).toBe('target_blocked');
  await expect(ui.getByRole('dialog')).toHaveCount(0);

  await settings.getByRole('button', { name: `Remove ${FIXTURE} from denied apps` }).click();
  await save(ui);
  const { answer } = await requestShowing(host, ui, 'welcome agent');
  await consentDialog(await consentSurface()).getByRole('button', { name: 'Deny', exact: true }).click();
  expect(errorCode(await answer)).toBe('consent_denied');
});

test('a denied app can be picked from the catalog', async ({ host, ui }) => {
  const settings = await openSettings(ui);
  await settings.getByRole('button', { name: 'Add an app…' }).click();
  const form = settings.getByRole('group', { name: 'Add an app' });
  await fillApp(form, { id: 'com.example.picked', name: 'Picked', url: 'http://127.0.0.1:4998/' });
  await form.getByRole('button', { name: 'Add app' }).click();
  await expect(ui.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  const pick = settings.getByLabel('Deny an app of the catalog');
  await pick.selectOption({ label: 'Picked (com.example.picked)' });
  await settings.getByRole('button', { name: 'Deny this app' }).click();
  await expect(settings.getByRole('button', { name: 'Remove com.example.picked from denied apps' })).toBeVisible();
  // A denied app is no longer offered; the built-in fixture still is.
  await expect(pick.getByRole('option', { name: 'Picked (com.example.picked)' })).toHaveCount(0);
  await expect(pick.getByRole('option', { name: `Demo Fixture (${FIXTURE})` })).toHaveCount(1);
  await save(ui);
  expect(errorCode(await ctl(host, 'request', 'app=com.example.picked', 'agent_name=picked agent'))).toBe('target_blocked');
});

test('settings survive a host restart', async ({ host, ui, page }) => {
  const settings = await openSettings(ui);
  await settings.getByRole('switch', { name: 'Demo mode' }).click();
  await settings.getByRole('button', { name: 'Add an app…' }).click();
  const form = settings.getByRole('group', { name: 'Add an app' });
  await fillApp(form, { id: 'com.example.wiki', name: 'Wiki', url: 'http://127.0.0.1:4999/wiki' });
  await form.getByRole('button', { name: 'Add app' }).click();
  await settings.getByLabel('Add a denied app (its id)').fill('com.example.banned');
  await settings.getByRole('button', { name: 'Add to denied apps' }).click();
  await save(ui);
  expect(await host.stop()).toBe(0);

  const again = await startHost([], {}, host.dataDir);
  try {
    expect(errorCode(await ctl(again, 'apps'))).toBe('demo_disabled');
    const againUi = await uiOf(again, page);
    const reloaded = await openSettings(againUi);
    await expect(reloaded.getByRole('switch', { name: 'Demo mode' })).toHaveAttribute('aria-checked', 'false');
    await expect(reloaded.getByRole('listitem').filter({ hasText: 'com.example.wiki' })).toContainText('http://127.0.0.1:4999/wiki');
    await expect(reloaded.getByRole('listitem').filter({ hasText: 'com.example.wiki' })).toContainText('Allowed origins: http://127.0.0.1:4999');
    await expect(reloaded.getByRole('button', { name: 'Remove com.example.banned from denied apps' })).toBeVisible();

    await reloaded.getByRole('switch', { name: 'Demo mode' }).click();
    await save(againUi);
    expect(await apps(again)).toEqual([{ id: FIXTURE, name: 'Demo Fixture' }, { id: 'com.example.wiki', name: 'Wiki' }]);
  } finally {
    expect(await again.stop(), again.stderr.join('\n')).toBe(0);
  }
});

test('an invalid entry shows a clear message and nothing is saved', async ({ host, ui }, testInfo) => {
  const settingsFile = path.join(host.dataDir, 'settings.json');
  const settings = await openSettings(ui);

  // Caught by the form: the entry never joins the catalog.
  await settings.getByRole('button', { name: 'Add an app…' }).click();
  const form = settings.getByRole('group', { name: 'Add an app' });
  await fillApp(form, { id: 'has spaces', name: 'Broken', url: 'notes.example.com', origins: 'https://auth.example.com/login' });
  await form.getByRole('button', { name: 'Add app' }).click();
  await expect(form.getByLabel('App id')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('App id')).toBeFocused();
  await expect(form.getByLabel('App id')).toHaveAccessibleDescription(/only letters, digits, dots, dashes and underscores/);
  await expect(form.getByLabel('URL')).toHaveAccessibleDescription(/The URL must be a full http:\/\/ or https:\/\/ address/);
  await expect(form.getByLabel('Allowed origins')).toHaveAccessibleDescription(/Not an origin: https:\/\/auth\.example\.com\/login/);
  await screenshot(ui, testInfo.outputPath('settings-invalid-entry.png'));
  await expect(ui.getByRole('button', { name: 'Save settings' })).toBeDisabled();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(settings.getByRole('listitem')).toHaveCount(1);

  // An id the host keeps for itself (the built-in fixture's, listed above): the form names it.
  await settings.getByRole('button', { name: 'Add an app…' }).click();
  await fillApp(form, { id: FIXTURE, name: 'Impostor', url: 'http://127.0.0.1:4998/' });
  await form.getByRole('button', { name: 'Add app' }).click();
  await expect(form.getByLabel('App id')).toHaveAccessibleDescription(/There is already an app with the id app\.orthiclabs\.demo-fixture\.$/);
  await screenshot(ui, testInfo.outputPath('settings-refused.png'));
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(ui.getByRole('status').filter({ hasText: 'Settings saved.' })).toHaveCount(0);
  expect(await apps(host)).toEqual([{ id: FIXTURE, name: 'Demo Fixture' }]);
  expect(existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')).apps : []).toEqual([]);

  // What the host holds is still the old settings.
  await ui.reload();
  const fresh = await openSettings(ui);
  await expect(fresh.getByRole('listitem')).toHaveCount(1);
  await expect(fresh.getByRole('listitem')).toContainText(FIXTURE);
});
