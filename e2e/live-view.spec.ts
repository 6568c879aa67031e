// The live view (issue: watch and record): the person sees the target as it is now, with the
// step and the last click drawn over it, and a plain pause when the target is not capture-safe.
import type { Locator } from '@playwright/test';
import { ctl, expect, find, snapshotWhenArmed, test } from './host-fixture.js';
import { act, allowedSession } from './ui-helpers.js';

/** The live view's pixels as a data URL (the canvas is the app's own drawing: readable). */
function pixels(view: Locator): Promise<string> {
  return view.evaluate((canvas) => (canvas as unknown as { toDataURL(type: string): string }).toDataURL('image/png'));
}

function frameSeq(view: Locator): Promise<number> {
  return view.evaluate((canvas) => Number((canvas as unknown as { dataset: Record<string, string> }).dataset['frameSeq'] ?? 0));
}

test('the live view shows the target, changes after Submit, pauses after Go private, and resumes in a fresh session', async ({ host, ui }) => {
  // Two sessions, each armed and drawn: a loaded 2-core machine needs more than the default minute.
  test.setTimeout(120_000);
  const token = await allowedSession(host, ui, 'live view agent');
  const view = ui.getByRole('img', { name: /^Live view/ });
  await expect(view).toBeVisible();
  await expect.poll(() => frameSeq(view), { message: 'a first frame is drawn' }).toBeGreaterThan(0);
  const before = await pixels(view);

  await act(host, token, 'textbox', 'Name', 'type', 'text=Ada');
  await act(host, token, 'button', 'Submit', 'click');
  expect(find(await snapshotWhenArmed(host, token), 'status', 'Hello, Ada!')).toBeTruthy();
  // The greeting is painted in the target, so the picture changes; the step is drawn over it.
  await expect.poll(async () => (await pixels(view)) !== before, { message: 'the live view changes after Submit' }).toBe(true);
  await expect(view).toHaveAccessibleName(/Step 2: click button "Submit"/);
  await expect(ui.locator('.live-view-click')).toBeVisible();

  await act(host, token, 'button', 'Go private', 'click');
  await expect(ui.getByRole('status').filter({ hasText: 'Paused: not capture-safe' })).toBeVisible();
  await expect(view).toHaveAccessibleName(/paused: not capture-safe/);
  // The session bar says why, in the driver's words (issue 13.2): the page now declares "unsafe".
  const bar = ui.getByRole('region', { name: /^Live demo: Demo Fixture/ });
  await expect(bar.getByRole('status')).toHaveText(/^Not capture-safe: the page declares its capture state "unsafe"/);
  const end = await ctl(host, 'end', `token=${token}`);
  expect(end.code).toBe(0);
  await expect(view).toHaveCount(0);

  const second = await allowedSession(host, ui, 'second live view agent');
  const fresh = ui.getByRole('img', { name: /^Live view/ });
  await expect.poll(() => frameSeq(fresh), { message: 'frames resume in a fresh session' }).toBeGreaterThan(0);
  await expect(ui.getByText('Paused: not capture-safe')).toHaveCount(0);
  await expect(ui.getByText(/^Not capture-safe:/)).toHaveCount(0);
  expect((await ctl(host, 'end', `token=${second}`)).code).toBe(0);
});
