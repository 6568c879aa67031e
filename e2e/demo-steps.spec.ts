// Step pictures that show the step, captions, and bundles managed from the UI (issue 12 items 1
// and 4): the live step count, captions, the highlight drawn at the recorded box (checked in
// the screenshot's pixels), the whole frame a click away, an edited caption that survives a
// reload while verify still passes and reports the edit; search, filters and delete.
import { AxeBuilder } from '@axe-core/playwright';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ctl, expect, test } from './host-fixture.js';
import { act, allowedSession } from './ui-helpers.js';

const root = path.resolve(import.meta.dirname, '..');
const HIGHLIGHT = { r: 0xff, g: 0x6a, b: 0x00 };

function cutright(...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, 'bin', 'cutright.js'), ...args], { encoding: 'utf8' });
}

/**
 * The colours of a screenshot of `picture` at points of the picture's own pixels: decoded in
 * a blank page's canvas (the e2e tsconfig has no DOM types, hence the casts).
 */
async function coloursAt(page: Page, picture: Locator, points: { x: number; y: number }[]): Promise<{ r: number; g: number; b: number }[]> {
  const shot = (await picture.screenshot()).toString('base64');
  const view = ((await picture.getAttribute('data-view')) ?? '').split(' ').map(Number) as [number, number, number, number];
  const size = await picture.boundingBox();
  const scratch = await page.context().newPage();
  try {
    return await scratch.evaluate(
      async ({ shot, view, size, points }) => {
        const g = globalThis as unknown as { Image: new () => { src: string; decode(): Promise<void>; naturalWidth: number; naturalHeight: number }; document: { createElement(n: string): { width: number; height: number; getContext(k: string): { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } } } };
        const img = new g.Image();
        img.src = `data:image/png;base64,${shot}`;
        await img.decode();
        const canvas = g.document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        // The SVG is laid out "meet": scale and centre the view in the element's box.
        const scale = Math.min(size.width / view[2], size.height / view[3]);
        const dx = (size.width - view[2] * scale) / 2;
        const dy = (size.height - view[3] * scale) / 2;
        const ratio = img.naturalWidth / size.width;
        return points.map((p) => {
          const x = Math.round((dx + (p.x - view[0]) * scale) * ratio);
          const y = Math.round((dy + (p.y - view[1]) * scale) * ratio);
          // The pixel of a 5×5 neighbourhood closest to the highlight's colour (edges are antialiased).
          const data = ctx.getImageData(x - 2, y - 2, 5, 5).data;
          let best = { r: 0, g: 0, b: 0 };
          let bestDistance = Infinity;
          for (let i = 0; i < data.length; i += 4) {
            const c = { r: data[i]!, g: data[i + 1]!, b: data[i + 2]! };
            const distance = Math.abs(c.r - 0xff) + Math.abs(c.g - 0x6a) + Math.abs(c.b);
            if (distance < bestDistance) [best, bestDistance] = [c, distance];
          }
          return best;
        });
      },
      { shot, view, size: size!, points },
    );
  } finally {
    await scratch.close();
  }
}

const near = (c: { r: number; g: number; b: number }) => Math.abs(c.r - HIGHLIGHT.r) < 40 && Math.abs(c.g - HIGHLIGHT.g) < 40 && Math.abs(c.b - HIGHLIGHT.b) < 40;

test('captions, the highlight at the recorded box, the whole frame, an edited caption that verify reports; live counts', async ({ host, ui }) => {
  const token = await allowedSession(host, ui, 'Caption agent');
  const sessions = ui.getByRole('region', { name: 'Sessions' });
  const row = sessions.getByRole('row').filter({ hasText: 'Caption agent' });
  await expect(row.getByRole('cell').nth(5)).toHaveText('0');
  await act(host, token, 'textbox', 'Name', 'type', 'text=Ada');
  // The list's step count follows without Reload.
  await expect(row.getByRole('cell').nth(5)).toHaveText('1');
  await row.getByRole('button', { name: /^Demo Fixture · Caption agent · / }).click();
  const bundle = ui.getByRole('region', { name: 'Demo of Demo Fixture' });
  await expect(bundle.getByRole('heading', { name: 'Steps (1)' })).toBeVisible();
  await act(host, token, 'button', 'Submit', 'click');
  // So does an open bundle view.
  await expect(bundle.getByRole('heading', { name: 'Steps (2)' })).toBeVisible();
  const ended = await ctl(host, 'end', `token=${token}`);
  expect(ended.code).toBe(0);
  const bundleId = ended.json['bundle_id'] as string;

  const steps = bundle.locator('ol.steps > li');
  await expect(steps.nth(0).locator('.caption-text')).toHaveText('Type "Ada" into Name');
  await expect(steps.nth(0).locator('.caption-text strong')).toHaveText('Name');
  await expect(steps.nth(1).locator('.caption-text')).toHaveText('Click Submit');

  // The highlight is drawn at the recorded box: the box's edges are the highlight's colour, its middle is not.
  const detail = JSON.parse(cutright('bundle', 'list', '--json', '--data-dir', host.dataDir).stdout) as { bundleId: string }[];
  expect(detail.map((d) => d.bundleId)).toContain(bundleId);
  const events = (await import('node:fs')).readFileSync(path.join(host.dataDir, 'bundles', bundleId, 'events.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const submit = events.find((e) => e.type === 'receipt' && e.label === 'Submit');
  expect(submit.box.width).toBeGreaterThan(10);
  expect(submit.point).toBeDefined();
  const picture = steps.nth(1).getByRole('img', { name: /^Step 2: click button "Submit"\. Click Submit$/ });
  await expect(picture).toBeVisible();
  await expect(picture.locator('image')).toHaveAttribute('href', /pictures\//);
  const { x, y, width, height } = submit.box as { x: number; y: number; width: number; height: number };
  // The stroke runs just outside the box, one stroke away from it.
  const stroke = await picture.locator('rect.highlight').getAttribute('stroke-width').then(Number);
  const edge = [
    { x: x + width / 2, y: y - stroke },
    { x: x + width / 2, y: y + height + stroke },
    { x: x - stroke, y: y + height / 2 },
    { x: x + width + stroke, y: y + height / 2 },
  ];
  // Inside the box, away from the click marker: the button's own pixels.
  const colours = await coloursAt(ui, picture, [...edge, { x: x + 6, y: y + height / 2 }]);
  expect(colours.slice(0, 4).every(near), JSON.stringify(colours)).toBe(true);
  expect(near(colours[4]!), JSON.stringify(colours)).toBe(false);

  // Zoomed to the step; the whole frame a click away.
  const zoomed = await picture.getAttribute('data-view');
  await steps.nth(1).getByRole('button', { name: 'Show the whole frame' }).click();
  await expect(picture).toHaveAttribute('data-view', `0 0 ${submit.viewport.width} ${submit.viewport.height}`);
  expect(zoomed).not.toBe(`0 0 ${submit.viewport.width} ${submit.viewport.height}`);

  // Edit a caption; it survives a reload, and verify passes reporting the edit.
  await steps.nth(1).getByRole('button', { name: 'Edit caption of step 2' }).click();
  const field = steps.nth(1).getByRole('textbox', { name: 'Caption of step 2' });
  await field.fill('Send the form with **Submit**');
  await steps.nth(1).getByRole('button', { name: 'Save caption' }).click();
  await expect(steps.nth(1).locator('.caption-text')).toHaveText('Send the form with Submit');
  await expect(steps.nth(1).locator('.caption-edited')).toContainText('recorded as: Click Submit');
  await ui.reload();
  await ui.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: /^Demo Fixture · Caption agent · / }).click();
  await expect(ui.locator('ol.steps > li').nth(1).locator('.caption-text')).toHaveText('Send the form with Submit');
  const verified = cutright('bundle', 'verify', bundleId, '--data-dir', host.dataDir);
  expect(verified.status, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toMatch(/^ok: .* is intact/m);
  expect(verified.stdout).toMatch(/^edited: 1 caption was edited after sealing \(annotations\.json/m);
  await ui.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(ui.getByRole('status').filter({ hasText: /^Verified:/ })).toContainText('1 caption was edited afterwards');

  // The HTML export, from the UI: a demo first (title, agent, steps with captions), no axe violation.
  await ui.getByRole('button', { name: 'Export HTML', exact: true }).click();
  const exported = ui.getByRole('status').filter({ hasText: /^Exported as HTML/ });
  await expect(exported).toBeVisible();
  const file = /to (\/.+\.html)$/.exec((await exported.textContent()) ?? '')?.[1];
  expect(file).toBeDefined();
  const page = await ui.context().newPage();
  await page.goto(`file://${file}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Demo of Demo Fixture');
  await expect(page.getByRole('banner')).toContainText('Caption agent');
  await expect(page.locator('ol.steps > li figcaption')).toHaveText(['Step 1 Type "Ada" into Name', 'Step 2 Send the form with Submit']);
  await expect(page.getByRole('img', { name: 'Step 2: Send the form with Submit', exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  await page.close();
});

test('search, filter and delete from the UI', async ({ host, ui }) => {
  const ids: string[] = [];
  for (const agent of ['Alpha agent', 'Beta agent']) {
    const token = await allowedSession(host, ui, agent);
    await act(host, token, 'button', 'Submit', 'click');
    ids.push((await ctl(host, 'end', `token=${token}`)).json['bundle_id'] as string);
  }
  const sessions = ui.getByRole('region', { name: 'Sessions' });
  const rows = sessions.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  const search = sessions.getByRole('searchbox', { name: 'Search' });
  await search.fill('beta');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Beta agent');
  await expect(sessions.getByRole('status').filter({ hasText: 'match' })).toHaveText('1 of 2 demos match');
  await search.fill('');
  await sessions.getByRole('combobox', { name: 'Agent' }).selectOption('Alpha agent');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Alpha agent');
  await sessions.getByRole('combobox', { name: 'State' }).selectOption('killed');
  await expect(rows).toHaveCount(0);
  await sessions.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(2);
  await sessions.getByLabel('From').fill('2000-01-01');
  await sessions.getByLabel('To').fill('2000-01-02');
  await expect(rows).toHaveCount(0);
  await sessions.getByRole('button', { name: 'Clear filters' }).click();

  // Delete asks first; Keep it keeps it.
  const beta = rows.filter({ hasText: 'Beta agent' });
  await beta.getByRole('button', { name: /^Delete: Demo Fixture · Beta agent/ }).click();
  await beta.getByRole('button', { name: 'Keep it' }).click();
  await expect(rows).toHaveCount(2);
  await beta.getByRole('button', { name: /^Delete: Demo Fixture · Beta agent/ }).click();
  await beta.getByRole('group', { name: /^Delete Demo Fixture · Beta agent/ }).getByRole('button', { name: 'Delete for good' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Alpha agent');
  expect(existsSync(path.join(host.dataDir, 'bundles', ids[1]!))).toBe(false);
  expect(existsSync(path.join(host.dataDir, 'bundles', ids[0]!))).toBe(true);
  // Gone for good: a reload does not bring it back.
  await ui.reload();
  await expect(ui.getByRole('region', { name: 'Sessions' }).locator('tbody tr')).toHaveCount(1);
});
