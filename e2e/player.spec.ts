// The player (issue 12 item 2): a session of several steps, its bundle view plays the
// recording; the timeline jumps to step 2 (its caption over the picture, the frame on screen
// at step 2's moment), play and pause, the keys, a gap shown with its reason; and the HTML
// export's embedded player plays offline from a file:// page, with the steps still readable
// with JavaScript off.
import { AxeBuilder } from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ctl, expect, test, type RunningHost } from './host-fixture.js';
import { act, allowedSession } from './ui-helpers.js';

interface Line {
  type: 'frame' | 'gap';
  at: number;
  file?: string;
  reason?: string;
}

/** The bundle's recording index and receipts, from disk. */
function recordingOf(host: RunningHost, bundleId: string): { lines: Line[]; receipts: { at: number; label: string }[] } {
  const dir = path.join(host.dataDir, 'bundles', bundleId);
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    lines: read('recording/index.ndjson') as unknown as Line[],
    receipts: read('events.ndjson').filter((e) => e.type === 'receipt') as unknown as { at: number; label: string }[],
  };
}

/** The frame on screen at `at` (the last line at or before it, by the docs' rules). */
function frameAt(lines: Line[], at: number): string | null {
  const shown = lines.slice(0, -1).filter((l) => l.at <= at).at(-1) ?? lines[0]!;
  return shown.type === 'frame' ? shown.file! : null;
}

async function recordedSession(host: RunningHost, ui: Page, agent: string): Promise<string> {
  const token = await allowedSession(host, ui, agent);
  await act(host, token, 'textbox', 'Name', 'type', 'text=Ada');
  await act(host, token, 'button', 'Submit', 'click');
  // Some recording after the greeting, then the page turns private: a gap until the end.
  await new Promise((resolve) => setTimeout(resolve, 600));
  await act(host, token, 'button', 'Go private', 'click');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const ended = await ctl(host, 'end', `token=${token}`);
  expect(ended.code).toBe(0);
  return ended.json['bundle_id'] as string;
}

test('the bundle view plays the recording: step 2 from the timeline, play and pause, keys, a gap with its reason', async ({ host, ui }) => {
  const bundleId = await recordedSession(host, ui, 'Player agent');
  const { lines, receipts } = recordingOf(host, bundleId);
  expect(lines.some((l) => l.type === 'gap' && l.reason!.startsWith('not capture-safe'))).toBe(true);

  await ui.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: /^Demo Fixture · Player agent · / }).click();
  const player = ui.getByRole('region', { name: 'Player' });
  const stage = player.getByRole('group', { name: 'Recording' });
  // The first frame is shown at once, paused at the start.
  await expect(stage).toHaveAttribute('data-frame-shown', lines[0]!.file!);
  await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // The timeline's mark for step 2: its caption over the picture, the frame on screen at its moment.
  const timeline = player.getByRole('group', { name: 'Timeline' });
  await expect(timeline.getByRole('button', { name: /^Step \d+:/ })).toHaveCount(3);
  await timeline.getByRole('button', { name: 'Step 2: Click Submit' }).click();
  await expect(stage.locator('.player-caption')).toHaveText('Step 2 Click Submit');
  await expect(stage).toHaveAttribute('data-step', '2');
  const step2Frame = frameAt(lines, receipts[1]!.at);
  expect(step2Frame).not.toBeNull();
  await expect(stage).toHaveAttribute('data-frame-shown', step2Frame!);
  await expect(stage.locator('image')).toHaveAttribute('href', new RegExp(`/${bundleId}/recording/${path.basename(step2Frame!)}$`));
  // Step 2's highlight is drawn over the frame.
  await expect(stage.locator('rect.highlight')).toHaveCount(1);

  // Play runs the clock; Pause stops it.
  const position = timeline.getByRole('slider', { name: 'Position' });
  const at = async () => Number(await position.inputValue());
  const before = await at();
  await player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect.poll(at).toBeGreaterThan(before);
  await player.getByRole('button', { name: 'Pause', exact: true }).click();
  const paused = await at();
  await ui.waitForTimeout(300);
  expect(await at()).toBe(paused);

  // Keys: Home, → to the next step, ← back, Space plays and pauses.
  await stage.focus();
  await ui.keyboard.press('Home');
  await expect(stage).toHaveAttribute('data-step', '0');
  await ui.keyboard.press('ArrowRight');
  await expect(stage).toHaveAttribute('data-step', '1');
  await expect(stage.locator('.player-caption')).toHaveText('Step 1 Type "Ada" into Name');
  await ui.keyboard.press('ArrowRight');
  await expect(stage).toHaveAttribute('data-step', '2');
  await ui.keyboard.press('ArrowLeft');
  await expect(stage).toHaveAttribute('data-step', '1');
  await ui.keyboard.press('Space');
  await expect(player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await ui.keyboard.press('Space');
  await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // The end lies in the gap the private page left: shown as a gap, with its reason.
  await ui.keyboard.press('End');
  await expect(stage.locator('.player-gap')).toContainText('Not recorded');
  await expect(stage.locator('.player-gap')).toContainText('not capture-safe');
  await expect(stage.getByRole('img')).toHaveCount(0);

  // A step in the list jumps there too.
  await ui.getByRole('button', { name: 'Show step 2 in the player' }).click();
  await expect(stage).toHaveAttribute('data-step', '2');
  await expect(stage).toBeFocused();

  const axe = await new AxeBuilder({ page: ui }).include('main').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
});

test("the HTML export's embedded player plays offline from file://, and the steps read with JavaScript off", async ({ host, ui, browser }) => {
  test.setTimeout(120_000);
  const bundleId = await recordedSession(host, ui, 'Export agent');
  const { lines, receipts } = recordingOf(host, bundleId);
  await ui.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: /^Demo Fixture · Export agent · / }).click();
  await ui.getByRole('button', { name: 'Export HTML', exact: true }).click();
  const exported = ui.getByRole('status').filter({ hasText: /^Exported as HTML/ });
  await expect(exported).toBeVisible();
  const file = /to (\/.+\.html)$/.exec((await exported.textContent()) ?? '')?.[1];
  expect(file).toBeDefined();

  // Offline, and any request that is not the file itself or a data: URI is refused and counted.
  const offline = await browser.newContext({ offline: true });
  const outside: string[] = [];
  await offline.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  const page = await offline.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`file://${file}`);
  const player = page.getByRole('region', { name: 'Player' });
  const stage = player.getByRole('group', { name: 'Recording' });
  await expect(player).toBeVisible();
  await expect(stage).toHaveAttribute('data-step', '0');
  await expect(stage.locator('image')).toHaveAttribute('href', /^data:image\/jpeg;base64,/);

  // Step 2 from its mark: its caption over the picture, its highlight drawn.
  await player.getByRole('group', { name: 'Timeline' }).getByRole('button', { name: 'Step 2: Click Submit' }).click();
  await expect(stage.locator('.player-caption')).toHaveText('Step 2 Click Submit');
  await expect(stage).toHaveAttribute('data-step', '2');
  await expect(stage.locator('rect.highlight')).toHaveCount(1);
  expect(frameAt(lines, receipts[1]!.at)).not.toBeNull();

  // It plays, and pauses.
  const position = player.getByRole('slider', { name: 'Position' });
  const at = async () => Number(await position.inputValue());
  const before = await at();
  await player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(at).toBeGreaterThan(before);
  await player.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // Keys, and the gap at the end with its reason.
  await stage.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(stage.locator('.player-caption')).toHaveText('Step 1 Type "Ada" into Name');
  await page.keyboard.press('End');
  await expect(stage.locator('.player-gap')).toContainText('not capture-safe');
  await page.getByRole('button', { name: 'Show step 2 in the player' }).click();
  await expect(stage).toHaveAttribute('data-step', '2');

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
  await offline.close();

  // JavaScript off: no player, the steps as before.
  const noScript = await browser.newContext({ javaScriptEnabled: false, offline: true });
  const plain = await noScript.newPage();
  await plain.goto(`file://${file}`);
  await expect(plain.getByRole('region', { name: 'Player' })).toHaveCount(0);
  await expect(plain.locator('ol.steps > li figcaption')).toHaveText(['Step 1 Type "Ada" into Name', 'Step 2 Click Submit', 'Step 3 Click Go private']);
  await expect(plain.getByRole('button', { name: /in the player$/ })).toHaveCount(0);
  await noScript.close();
});
