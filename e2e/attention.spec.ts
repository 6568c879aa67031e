// Attention and stopping (issue 13.4): a consent request changes the page title and shows a
// notification where allowed; several live sessions get Stop buttons naming their app and
// agent, plus Stop all; the kill shortcut works in the page and is shown on the button; the
// focus lands somewhere sensible after Stop; a live region announces what happens.
import { bundleList, ctl, errorCode, expect, test } from './host-fixture.js';
import { allowedSession, consentDialog, FIXTURE, requestShowing, stopDemo } from './ui-helpers.js';

test.skip(({ shell }) => shell === 'electron', "these are the web shell's page behaviours; Electron has its own focused consent window and a global shortcut");

test('a consent request changes the title and shows a notification; answering restores the title', async ({ host, ui, context }) => {
  await context.grantPermissions(['notifications'], { origin: new URL(host.uiUrl).origin });
  // Records each Notification the page makes (the browser's own class still makes it).
  await ui.addInitScript(() => {
    const g = globalThis as unknown as { Notification: new (title: string, options?: { body?: string }) => object; shown: Array<{ title: string; body?: string }> };
    const Real = g.Notification;
    g.shown = [];
    g.Notification = class extends (Real as unknown as new (title: string, options?: { body?: string }) => object) {
      constructor(title: string, options?: { body?: string }) {
        super(title, options);
        g.shown.push({ title, body: options?.body });
      }
    } as unknown as typeof Real;
    Object.assign(g.Notification, { permission: (Real as unknown as { permission: string }).permission });
  });
  await ui.reload();
  await expect(ui).toHaveTitle('CutRight');
  const { answer } = await requestShowing(host, ui, 'title agent');
  await expect(ui).toHaveTitle('Allow a demo? · CutRight');
  const shown = await ui.evaluate(() => (globalThis as unknown as { shown: unknown[] }).shown);
  expect(shown).toEqual([{ title: 'CutRight: allow a demo session?', body: 'An agent claiming to be "title agent" asks to drive Demo Fixture.' }]);
  await consentDialog(ui).getByRole('button', { name: 'Deny', exact: true }).click();
  expect(errorCode(await answer)).toBe('consent_denied');
  await expect(ui).toHaveTitle('CutRight');
});

test('two live sessions: distinct Stop names, Stop all ends both, announced in the live region', async ({ host, ui }) => {
  test.setTimeout(180_000); // three sessions are opened and armed
  await allowedSession(host, ui, 'agent A');
  // allowedSession waits until it records: the region has said it started, then this.
  await expect(ui.getByTestId('announcer')).toContainText('Recording Demo Fixture (agent "agent A").');
  // One live: the button is exactly "Stop demo", with the shortcut shown on it.
  await expect(stopDemo(ui)).toHaveCount(1);
  await expect(stopDemo(ui)).toContainText('Ctrl+Alt+Shift+K');
  await expect(stopDemo(ui)).toHaveAttribute('aria-keyshortcuts', 'Control+Alt+Shift+K');
  await allowedSession(host, ui, 'agent B');
  const stopA = ui.getByRole('button', { name: 'Stop demo: Demo Fixture (agent "agent A")', exact: true });
  const stopB = ui.getByRole('button', { name: 'Stop demo: Demo Fixture (agent "agent B")', exact: true });
  await expect(stopA).toBeVisible();
  await expect(stopB).toBeVisible();
  const stopAll = ui.getByRole('button', { name: 'Stop all', exact: true });
  await expect(stopAll).toBeVisible();

  // Stop one: the focus goes to the other's Stop button, not to the top of the page.
  await stopA.click();
  await expect(stopA).toHaveCount(0);
  await expect(stopDemo(ui)).toBeFocused();
  await expect(ui.getByTestId('announcer')).toContainText('Demo session ended: Demo Fixture (agent "agent A").');

  await allowedSession(host, ui, 'agent C');
  await stopAll.click();
  await expect(ui.getByRole('button', { name: /^Stop demo/ })).toHaveCount(0);
  await expect(ui.getByRole('heading', { level: 2 }).first()).toBeFocused();
  await expect.poll(() => bundleList(host).map((b) => b.state)).toEqual(['killed', 'killed', 'killed']);
});

test('the kill shortcut stops every live session from the page', async ({ host, ui }) => {
  await allowedSession(host, ui, 'agent K');
  await ui.keyboard.press('Control+Alt+Shift+K');
  await expect(stopDemo(ui)).toHaveCount(0);
  await expect.poll(() => bundleList(host)).toEqual([expect.objectContaining({ state: 'killed', reason: 'kill control' })]);
});

test('Deny all waiting shows only while others wait, and refuses them all in one press', async ({ host, ui }) => {
  const first = await requestShowing(host, ui, 'agent one');
  const denyAll = consentDialog(ui).getByRole('button', { name: 'Deny all waiting', exact: true });
  // One request: Deny is all there is to press.
  await expect(denyAll).toHaveCount(0);
  const second = ctl(host, 'request', `app=${FIXTURE}`, 'agent_name=agent two');
  const third = ctl(host, 'request', `app=${FIXTURE}`, 'agent_name=agent three');
  await expect(consentDialog(ui)).toContainText('2 more requests are waiting');
  await expect(denyAll).toBeVisible();
  await denyAll.click();
  const answers = await Promise.all([first.answer, second, third]);
  expect(answers.map(errorCode)).toEqual(['consent_denied', 'consent_denied', 'consent_denied']);
  await expect(consentDialog(ui)).toHaveCount(0);
  expect(bundleList(host)).toEqual([]);
});
