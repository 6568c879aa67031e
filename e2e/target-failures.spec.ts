// Failures reach the person (issue 13.3): a target that cannot open shows the reason in the
// session bar with Stop, and the session ends `killed` with that reason in its bundle, never
// `complete` with no steps.
import { bundleList, ctl, errorCode, expect, startHost, test, uiOf } from './host-fixture.js';
import { consentDialog, requestShowing, stopDemo } from './ui-helpers.js';

test.skip(({ shell }) => shell === 'electron', "the web shell's browser; Electron opens targets in its own windows");

test('no browser: the bar says why with Stop demo; the agent gets permission_missing; Stop seals it killed with the reason', async ({ page }) => {
  const host = await startHost(['--browser', '/nonexistent/chromium']);
  try {
    const ui = await uiOf(host, page);
    const { answer } = await requestShowing(host, ui, 'no-browser agent');
    const allow = consentDialog(ui).getByRole('button', { name: 'Allow', exact: true });
    await expect(allow).toBeEnabled();
    await allow.click();
    const granted = await answer;
    expect(granted.code, JSON.stringify(granted.json)).toBe(0);
    const token = granted.json['token'] as string;

    const bar = ui.getByRole('region', { name: 'Live demo: Demo Fixture' });
    await expect(bar).toContainText('Cannot open');
    await expect(bar).toContainText('Could not open Demo Fixture: permission missing: a browser the host can start (no browser found to open targets in; tried /nonexistent/chromium)');
    await expect(bar).toContainText('--browser');
    await expect(ui.getByTestId('announcer')).toContainText('Could not open Demo Fixture (agent "no-browser agent")');
    await expect(stopDemo(ui)).toBeVisible();

    const snapshot = await ctl(host, 'snapshot', `token=${token}`);
    expect(errorCode(snapshot)).toBe('permission_missing');

    await stopDemo(ui).click();
    await expect(stopDemo(ui)).toHaveCount(0);
    await expect.poll(() => bundleList(host)).toEqual([
      expect.objectContaining({ state: 'killed', steps: 0, reason: expect.stringMatching(/^target could not open: permission missing: a browser the host can start/) }),
    ]);
    // The page keeps saying what happened until the person dismisses it.
    const problem = ui.getByRole('alert').filter({ hasText: 'Demo session of Demo Fixture' });
    await expect(problem).toContainText('the app could not be opened (target could not open)');
    await problem.getByRole('button', { name: /^Dismiss/ }).click();
    await expect(problem).toHaveCount(0);
    expect(errorCode(await ctl(host, 'snapshot', `token=${token}`))).toBe('session_killed');
  } finally {
    await host.stop();
  }
});

test('no browser: demo.end answers killed, not complete with 0 steps', async ({ page }) => {
  const host = await startHost(['--browser', '/nonexistent/chromium']);
  try {
    const ui = await uiOf(host, page);
    const { answer } = await requestShowing(host, ui, 'ending agent');
    const allow = consentDialog(ui).getByRole('button', { name: 'Allow', exact: true });
    await expect(allow).toBeEnabled();
    await allow.click();
    const token = (await answer).json['token'] as string;
    await expect(ui.getByRole('region', { name: 'Live demo: Demo Fixture' })).toContainText('Cannot open');
    const ended = await ctl(host, 'end', `token=${token}`);
    expect(ended.json).toMatchObject({ ended: true, bundle_state: 'killed' });
    await expect(stopDemo(ui)).toHaveCount(0);
    expect(bundleList(host)).toEqual([expect.objectContaining({ state: 'killed', reason: expect.stringMatching(/^target could not open: /) })]);
  } finally {
    await host.stop();
  }
});

test('a page that does not load: the session ends killed at once, and the page says why', async ({ host, ui }) => {
  // An app whose address answers nothing, added as a person would (adding it saves).
  await ui.getByRole('button', { name: 'Settings' }).click();
  await ui.getByRole('button', { name: 'Add an app…' }).click();
  await ui.getByLabel('App id').fill('com.example.down');
  await ui.getByLabel('Name', { exact: true }).fill('Down App');
  await ui.getByLabel('URL').fill('http://127.0.0.1:9/');
  await ui.getByRole('button', { name: 'Add app' }).click();
  await expect(ui.getByText('Settings saved.')).toBeVisible();
  await ui.getByRole('button', { name: 'Sessions' }).click();

  const { answer } = await requestShowing(host, ui, 'down agent', 'com.example.down');
  const allow = consentDialog(ui).getByRole('button', { name: 'Allow', exact: true });
  await expect(allow).toBeEnabled();
  await allow.click();
  const token = (await answer).json['token'] as string;
  const problem = ui.getByRole('alert').filter({ hasText: 'Demo session of Down App' });
  await expect(problem).toContainText('the app could not be opened (target could not open)');
  await expect(problem).toContainText('Down App could not be opened at http://127.0.0.1:9/');
  await expect(stopDemo(ui)).toHaveCount(0);
  const next = await ctl(host, 'snapshot', `token=${token}`);
  expect(errorCode(next)).toBe('session_killed');
  expect(JSON.stringify(next.json)).toContain('target could not open');
  await expect.poll(() => bundleList(host)).toEqual([expect.objectContaining({ state: 'killed', steps: 0, reason: expect.stringMatching(/^target could not open: Down App could not be opened/) })]);
});
