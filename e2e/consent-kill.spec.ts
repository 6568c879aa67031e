// The kill control stays in reach while another request's consent is asked: the dialog is not
// a native modal, so Stop demo of a live session stays above its backdrop and operable (web
// shell), or stays in its own window beside the consent window (Electron).
import { bundleList, ctl, errorCode, expect, find, snapshotWhenArmed, test } from './host-fixture.js';
import { allowedSession, consentDialog, requestShowing, stopDemo } from './ui-helpers.js';

test('Stop demo of a live session works while a second request waits for consent', async ({ host, ui, shell, consentSurface, killSurface }, testInfo) => {
  const tokenA = await allowedSession(host, ui, 'agent A');
  const nameA = find(await snapshotWhenArmed(host, tokenA), 'textbox', 'Name');

  const { answer: answerB } = await requestShowing(host, ui, 'agent B');
  const consent = await consentSurface();
  const dialog = consentDialog(consent);
  const deny = dialog.getByRole('button', { name: 'Deny', exact: true });
  const allow = dialog.getByRole('button', { name: 'Allow', exact: true });
  await expect(deny).toBeFocused();
  await consent.screenshot({ path: testInfo.outputPath('consent-over-live-session.png') });

  if (shell === 'web') {
    // The web shell asks in the page that holds the kill controls. The rest of the page is
    // inert while consent is asked; the kill controls are not.
    await expect(ui.locator('main')).toHaveAttribute('inert', '');
    await expect(ui.getByRole('navigation', { name: 'Main' }).locator('xpath=ancestor::header')).toHaveAttribute('inert', '');

    // The focus trap cycles through the dialog and the kill controls. Allow is disabled, and so
    // out of the tab order, until the dialog has been up for its arming delay.
    await expect(allow).toBeEnabled();
    await ui.keyboard.press('Tab');
    await expect(allow).toBeFocused();
    await ui.keyboard.press('Tab');
    await expect(stopDemo(ui)).toBeFocused();
    await ui.keyboard.press('Shift+Tab');
    await expect(allow).toBeFocused();
    await ui.keyboard.press('Shift+Tab');
    await expect(deny).toBeFocused();
  }

  // A real click (Playwright checks nothing covers the button) kills session A at once.
  await stopDemo(await killSurface()).click();
  await expect(stopDemo(ui)).toHaveCount(0);
  const next = await ctl(host, 'act', `token=${tokenA}`, `ref=${nameA.ref}`, 'op=type', 'text=more');
  expect(errorCode(next)).toBe('session_killed');

  // B's question is still asked, with the focus back on Deny.
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('agent B');
  await expect(deny).toBeFocused();
  await deny.click();
  const deniedB = await answerB;
  expect(errorCode(deniedB)).toBe('consent_denied');
  await expect(ui.getByRole('dialog')).toHaveCount(0);
  await expect(ui.locator('main')).not.toHaveAttribute('inert');

  expect(bundleList(host)).toEqual([expect.objectContaining({ state: 'killed', reason: 'kill control' })]);
});

test('Escape denies, wherever the focus is inside the trap', async ({ host, ui, shell }) => {
  test.skip(shell === 'electron', "the focus trap over the dialog and the kill controls is the web shell's one page; Electron shows them in separate windows");
  await allowedSession(host, ui, 'agent A');
  const { answer: answerB } = await requestShowing(host, ui, 'agent B');
  await stopDemo(ui).focus();
  await ui.keyboard.press('Escape');
  expect(errorCode(await answerB)).toBe('consent_denied');
  await expect(ui.getByRole('dialog')).toHaveCount(0);
  // Escape answered the question only: session A is still live.
  await expect(stopDemo(ui)).toBeVisible();
});

test('the small windows: #kill and ?window=kill show only the kill control, #consent only the dialog', async ({ host, ui, context, shell }, testInfo) => {
  test.skip(shell === 'electron', "opens the web shell's URL with #kill, ?window=kill and #consent in browser tabs; in Electron those layouts are the real kill and consent windows, which the other specs drive through killSurface and consentSurface");
  const token = await allowedSession(host, ui, 'window agent');
  const killWindow = await context.newPage();
  await killWindow.setViewportSize({ width: 560, height: 120 });
  await killWindow.goto(`${host.uiUrl}#kill`);
  await expect(stopDemo(killWindow)).toBeVisible();
  await expect(killWindow.getByRole('navigation')).toHaveCount(0);
  await expect(killWindow.getByRole('timer')).toBeVisible();
  await killWindow.screenshot({ path: testInfo.outputPath('kill-window.png') });

  const queryWindow = await context.newPage();
  await queryWindow.goto(`${host.uiUrl}?window=kill`);
  await expect(stopDemo(queryWindow)).toBeVisible();
  await expect(queryWindow.getByRole('navigation')).toHaveCount(0);
  await queryWindow.close();

  const consentWindow = await context.newPage();
  await consentWindow.setViewportSize({ width: 520, height: 460 });
  await consentWindow.goto(`${host.uiUrl}#consent`);
  await expect(consentWindow.getByRole('navigation')).toHaveCount(0);
  const { answer } = await requestShowing(host, consentWindow, 'second agent');
  await expect(consentDialog(consentWindow).getByRole('button', { name: 'Deny', exact: true })).toBeFocused();
  await expect(stopDemo(consentWindow)).toHaveCount(0);
  await consentWindow.screenshot({ path: testInfo.outputPath('consent-window.png') });
  await consentWindow.keyboard.press('Escape');
  expect(errorCode(await answer)).toBe('consent_denied');

  // The kill window's Stop demo ends the session.
  await stopDemo(killWindow).click();
  await expect(stopDemo(killWindow)).toHaveCount(0);
  expect(errorCode(await ctl(host, 'end', `token=${token}`))).toBe('session_killed');
});
