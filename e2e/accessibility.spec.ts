// axe-core over every UI state, in a normal window, at 800×600 and at 200 % zoom of it (the
// page laid out in 400×300 CSS pixels): zero violations, and the page never scrolls sideways
// (issue 13.6/13.7). One host, one walk through the states, checked at each size.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { rawRequest } from './raw-client.js';
import { act, allowedSession, consentDialog, FIXTURE, stopDemo } from './ui-helpers.js';
import { ctl, expect, test } from './host-fixture.js';

const SIZES = [
  { name: '1280×720', width: 1280, height: 720 },
  { name: '800×600', width: 800, height: 600 },
  { name: '800×600 at 200 % zoom', width: 400, height: 300 },
];

/** Checks the page at every size: no axe violation, no sideways scrolling. */
async function checkState(ui: Page, state: string): Promise<void> {
  for (const size of SIZES) {
    await ui.setViewportSize({ width: size.width, height: size.height });
    const results = await new AxeBuilder({ page: ui }).analyze();
    const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
    expect(found, `${state} at ${size.name}`).toEqual([]);
    const sideways = await ui.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(sideways, `${state} at ${size.name}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await ui.setViewportSize({ width: 1280, height: 720 });
}

test.skip(({ shell }) => shell === 'electron', 'axe runs on the web shell page; Electron shows the same components');

test.describe.configure({ timeout: 300_000 });

test('zero axe violations: the empty list, the consent dialog, live sessions, Stop all', async ({ host, ui }) => {
  const sessions = ui.getByRole('region', { name: 'Sessions' });
  await expect(sessions).toBeVisible();
  await checkState(ui, 'no sessions yet');

  // The consent dialog, with a hostile name and the whole name shown.
  const call = rawRequest(host, { app: FIXTURE, agent_name: `Agent \u202E${'W'.repeat(300)}` });
  const dialog = consentDialog(ui);
  await expect(dialog).toBeVisible();
  await checkState(ui, 'consent dialog');
  await dialog.getByText(/Show the whole name/).click();
  await checkState(ui, 'consent dialog, whole name shown');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  await call.answer;

  // One live session, then two (Stop all), then a consent over a live session.
  const tokenA = await allowedSession(host, ui, 'agent A');
  await act(host, tokenA, 'textbox', 'Name', 'type', 'text=Ada');
  await checkState(ui, 'one live session');
  await allowedSession(host, ui, 'agent B');
  await checkState(ui, 'two live sessions');
  const waiting = rawRequest(host, { app: FIXTURE, agent_name: 'agent C' });
  await expect(dialog).toContainText('agent C');
  await checkState(ui, 'consent over live sessions');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  await waiting.answer;
  await ui.getByRole('button', { name: 'Stop all', exact: true }).click();
  await expect(ui.getByRole('button', { name: /^Stop demo/ })).toHaveCount(0);
});

test('zero axe violations: the sessions list, one bundle, settings and the add-an-app form', async ({ host, ui }) => {
  const sessions = ui.getByRole('region', { name: 'Sessions' });
  const tokenB = await allowedSession(host, ui, 'agent B');
  await act(host, tokenB, 'textbox', 'Name', 'type', 'text=Ada');
  await stopDemo(ui).click();
  // One that ends normally; the list, and one bundle.
  const tokenC = await allowedSession(host, ui, 'agent D');
  await act(host, tokenC, 'button', 'Submit', 'click');
  expect((await ctl(host, 'end', `token=${tokenC}`)).code).toBe(0);
  await expect(sessions.getByRole('row')).toHaveCount(3);
  await checkState(ui, 'sessions list');
  await sessions.getByRole('row').nth(1).getByRole('button').first().click();
  await expect(ui.getByRole('img').first()).toBeVisible();
  await checkState(ui, 'one bundle');

  // Settings, and the add-an-app form.
  await ui.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = ui.getByRole('region', { name: 'Settings' });
  await expect(settings.getByRole('switch', { name: 'Demo mode' })).toBeVisible();
  await checkState(ui, 'settings');
  await settings.getByRole('button', { name: 'Add an app…' }).click();
  await settings.getByRole('group', { name: 'Add an app' }).getByRole('button', { name: 'Add app' }).click();
  await checkState(ui, 'add an app, with its errors');
  // "Check this app" with its answer (a page that does not load: not capture-safe, and why).
  const form = settings.getByRole('group', { name: 'Add an app' });
  await form.getByLabel('App id').fill('com.example.checked');
  await form.getByLabel('Name', { exact: true }).fill('Checked');
  await form.getByLabel('URL').fill('http://127.0.0.1:9/');
  await form.getByRole('button', { name: 'Check this app' }).click();
  await expect(form.getByRole('status')).toContainText('Not capture-safe:', { timeout: 30_000 });
  await checkState(ui, 'add an app, checked');

});

test("zero axe violations: Electron's small windows (#kill, #consent) as pages", async ({ host, ui, context }) => {
  const kill = await context.newPage();
  await allowedSession(host, ui, 'agent E');
  await kill.goto(`${host.uiUrl}#kill`);
  await expect(stopDemo(kill)).toBeVisible();
  await checkState(kill, 'the kill window');
  await stopDemo(kill).click();
  const consent = await context.newPage();
  await consent.goto(`${host.uiUrl}#consent`);
  const last = rawRequest(host, { app: FIXTURE, agent_name: 'agent F' });
  await expect(consentDialog(consent)).toBeVisible();
  await checkState(consent, 'the consent window');
  await consentDialog(consent).getByRole('button', { name: 'Deny', exact: true }).click();
  await last.answer;
});
