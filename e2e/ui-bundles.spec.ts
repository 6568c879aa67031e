// The Sessions view and the bundle view (issue 4, item 5): two sessions run through the real
// cutright-ctl, one ended and one stopped with Stop demo, then both bundles are opened in the UI.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { bundleList, ctl, expect, test } from './host-fixture.js';
import { act, allowedSession, screenshot, stopDemo } from './ui-helpers.js';

/** Every picture in `scope` is decoded (lazy ones are scrolled to first). */
async function expectPicturesLoaded(scope: Locator): Promise<void> {
  for (const img of await scope.getByRole('img').all()) {
    await img.scrollIntoViewIfNeeded();
    // Runs in the page; the e2e tsconfig has no DOM types, hence the cast.
    // An <img>, or a step picture's SVG: the picture it shows decodes (loaded again from the same URL).
    const decodedWidth = () =>
      img.evaluate(async (el) => {
        const node = el as unknown as { localName: string; src?: string; querySelector(s: string): { href: { baseVal: string } } | null };
        const src = node.localName === 'svg' ? node.querySelector('image')?.href.baseVal : node.src;
        const image = new (globalThis as unknown as { Image: new () => { src: string; decode(): Promise<void>; naturalWidth: number } }).Image();
        image.src = src ?? '';
        return image.decode().then(() => image.naturalWidth, () => 0);
      });
    await expect.poll(decodedWidth, { message: 'picture decoded' }).toBeGreaterThan(0);
  }
}

/** How many step pictures the bundle has on disk. */
function picturesIn(host: { dataDir: string }, bundleId: string): number {
  const dir = path.join(host.dataDir, 'bundles', bundleId, 'pictures');
  return existsSync(dir) ? readdirSync(dir).length : 0;
}

function stepItems(ui: Page): Locator {
  return ui.locator('ol.steps > li').filter({ has: ui.getByRole('img') });
}

/** The bundle's row button: its readable name (app · agent · start). */
function openButton(row: Locator, agent: string): Locator {
  return row.getByRole('button', { name: new RegExp(`^Demo Fixture · ${agent} · `) });
}

test('sessions list both bundles with their state; each bundle shows consent, steps with pictures, and its end', async ({ host, ui, killSurface }, testInfo) => {
  // A session that ends normally.
  const complete = await allowedSession(host, ui, 'Bundle viewer agent');
  await act(host, complete, 'textbox', 'Name', 'type', 'text=Ada');
  await act(host, complete, 'button', 'Submit', 'click');
  const ended = await ctl(host, 'end', `token=${complete}`);
  expect(ended.code, JSON.stringify(ended.json)).toBe(0);
  const completeId = ended.json['bundle_id'] as string;

  // A session stopped with the kill control.
  const killed = await allowedSession(host, ui, 'Stopped agent');
  await act(host, killed, 'textbox', 'Name', 'type', 'text=Bob');
  // The step's picture is taken after the act is answered, and one not yet kept when Stop demo
  // is pressed is dropped (nothing is captured after a kill): the person presses it once it is.
  const liveId = bundleList(host).find((b) => b.state === 'open')?.bundleId;
  expect(liveId, JSON.stringify(bundleList(host))).toBeDefined();
  await expect.poll(() => picturesIn(host, liveId!), { message: 'the step picture kept', timeout: 15_000 }).toBe(1);
  await stopDemo(await killSurface()).click();
  await expect(stopDemo(ui)).toHaveCount(0);
  const killedId = bundleList(host).find((b) => b.state === 'killed')?.bundleId;
  expect(killedId, JSON.stringify(bundleList(host))).toBeDefined();

  // The Sessions view: both bundles, a readable name, the id and state visible.
  const sessions = ui.getByRole('region', { name: 'Sessions' });
  const completeRow = sessions.getByRole('row').filter({ hasText: completeId });
  const killedRow = sessions.getByRole('row').filter({ hasText: killedId! });
  await expect(openButton(completeRow, 'Bundle viewer agent')).toBeVisible();
  await expect(completeRow.getByRole('cell').nth(1)).toHaveText('complete');
  await expect(completeRow).toContainText('Bundle viewer agent');
  await expect(openButton(killedRow, 'Stopped agent')).toBeVisible();
  await expect(killedRow.getByRole('cell').nth(1).locator('.state')).toHaveText('killed');
  await expect(killedRow.getByRole('cell').nth(1)).toContainText('kill control');
  await expect(killedRow).toContainText('Stopped agent');
  // Newest first.
  await expect(sessions.getByRole('row').nth(1)).toContainText(killedId!);
  await screenshot(ui, testInfo.outputPath('sessions.png'));

  // The complete bundle.
  await openButton(completeRow, 'Bundle viewer agent').click();
  const bundle = ui.getByRole('region', { name: 'Demo of Demo Fixture' });
  await expect(bundle.getByRole('heading', { name: 'Demo of Demo Fixture' })).toBeFocused();
  await expect(bundle).toContainText(completeId);
  await expect(bundle.getByRole('heading', { name: 'Consent' })).toBeVisible();
  await expect(bundle.locator('.consent-record')).toContainText(/Allowed by .+ at \d{4}-\d\d-\d\d/);
  await expect(bundle.locator('.consent-record')).toContainText('Bundle viewer agent');
  await expect(bundle.locator('.consent-record')).toContainText('Demo Fixture');
  await expect(bundle.getByRole('heading', { name: 'Steps (2)' })).toBeVisible();
  const steps = stepItems(ui);
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('Step 1');
  await expect(steps.nth(0)).toContainText('Type "Ada" into Name');
  await steps.nth(0).locator('summary', { hasText: 'Receipt' }).click();
  await expect(steps.nth(0)).toContainText('type');
  await expect(steps.nth(0)).toContainText('textbox “Name”');
  await expect(steps.nth(0)).toContainText('“Ada”');
  await expect(steps.nth(0).getByRole('img', { name: 'Step 1: type "Ada" into textbox "Name". Type "Ada" into Name' })).toBeVisible();
  await expect(steps.nth(1)).toContainText('Step 2');
  await expect(steps.nth(1)).toContainText('Click Submit');
  await expect(steps.nth(1).getByRole('img', { name: 'Step 2: click button "Submit". Click Submit' })).toBeVisible();
  await expectPicturesLoaded(bundle);
  await expect(bundle.getByRole('heading', { name: 'End' })).toBeVisible();
  await expect(bundle.locator('.end')).toHaveText(/^Sealed complete at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: the agent ended the session \(demo\.end\)\.$/);
  await screenshot(ui, testInfo.outputPath('bundle-complete.png'));

  // Back to the list, then the killed bundle.
  await ui.getByRole('button', { name: '← All sessions' }).click();
  await openButton(sessions.getByRole('row').filter({ hasText: killedId! }), 'Stopped agent').click();
  const killedBundle = ui.getByRole('region', { name: 'Demo of Demo Fixture' });
  await expect(killedBundle).toContainText(killedId!);
  await expect(killedBundle.locator('.consent-record')).toContainText('Stopped agent');
  await expect(killedBundle.getByRole('heading', { name: 'Steps (1)' })).toBeVisible();
  await expect(stepItems(ui)).toHaveCount(1);
  await expect(killedBundle.getByRole('img', { name: 'Step 1: type "Bob" into textbox "Name". Type "Bob" into Name' })).toBeVisible();
  await expectPicturesLoaded(killedBundle);
  await expect(killedBundle.getByRole('definition').filter({ hasText: 'killed' })).toContainText('Stop demo was pressed (kill control)');
  await expect(killedBundle.locator('.end')).toHaveText(/^Sealed killed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: Stop demo was pressed \(kill control\)\.$/);
  await screenshot(ui, testInfo.outputPath('bundle-killed.png'));
});
