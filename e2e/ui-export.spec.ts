// Exports people send, from the UI (issue 12 item 3): a video and a GIF of a recorded session,
// each with its progress bar while it is made (the host's view carries the progress), then
// where it was written; the files open as a video and a picture.
import { readFileSync } from 'node:fs';
import { ctl, expect, test } from './host-fixture.js';
import { act, allowedSession } from './ui-helpers.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('export a demo as a video and a GIF from the UI, with a progress bar while each is made', async ({ host, ui }) => {
  test.setTimeout(180_000);
  const token = await allowedSession(host, ui, 'Video agent');
  await pause(800);
  await act(host, token, 'textbox', 'Name', 'type', 'text=Ada');
  await pause(800);
  await act(host, token, 'checkbox', 'Subscribe', 'click');
  await pause(800);
  await act(host, token, 'button', 'Submit', 'click');
  await pause(800);
  expect((await ctl(host, 'end', `token=${token}`)).code).toBe(0);

  const sessions = ui.getByRole('region', { name: 'Sessions' });
  const row = sessions.getByRole('row').filter({ hasText: 'Video agent' });
  await expect(row).toContainText('complete');

  // From the sessions list: the row's Export video, its progress bar, then where the video is.
  await row.getByRole('button', { name: /^Export video: Demo Fixture · Video agent · / }).click();
  const bar = ui.getByRole('progressbar', { name: /^Exporting video of Demo Fixture · Video agent · / });
  await expect(bar).toBeVisible();
  const exported = row.getByRole('status').filter({ hasText: /^Exported as a video \(WebM\)/ });
  await expect(exported).toBeVisible({ timeout: 60_000 });
  await expect(bar).toHaveCount(0);
  const video = /to (\/.+\.webm)$/.exec((await exported.textContent()) ?? '')?.[1];
  expect(video).toBeDefined();

  // The file plays as a video in the browser, as long as the recording, more or less.
  const page = await ui.context().newPage();
  await page.goto('about:blank');
  const duration = await page.evaluate(async (b64) => {
    const g = globalThis as unknown as { document: { createElement(n: string): { muted: boolean; src: string; duration: number; onloadedmetadata: (() => void) | null; onerror: (() => void) | null } }; URL: { createObjectURL(b: unknown): string }; Blob: new (parts: unknown[], o: { type: string }) => unknown; atob(s: string): string };
    const video = g.document.createElement('video');
    video.muted = true;
    video.src = g.URL.createObjectURL(new g.Blob([Uint8Array.from(g.atob(b64), (c) => c.charCodeAt(0))], { type: 'video/webm' }));
    await new Promise<void>((resolve, reject) => {
      video.onloadedmetadata = () => resolve();
      video.onerror = () => reject(new Error('the video does not load'));
    });
    return video.duration;
  }, readFileSync(video!).toString('base64'));
  expect(duration).toBeGreaterThan(2);
  expect(duration).toBeLessThan(60);
  await page.close();

  // From the bundle view: Export GIF, its bar, its place.
  await row.getByRole('button', { name: /^Demo Fixture · Video agent · / }).click();
  await ui.getByRole('button', { name: 'Export GIF', exact: true }).click();
  await expect(ui.getByRole('progressbar', { name: /^Exporting GIF of / })).toBeVisible();
  const gif = ui.getByRole('status').filter({ hasText: /^Exported as a GIF/ });
  await expect(gif).toBeVisible({ timeout: 60_000 });
  const file = /to (\/.+\.gif)$/.exec((await gif.textContent()) ?? '')?.[1];
  expect(readFileSync(file!).subarray(0, 6).toString('latin1')).toBe('GIF89a');
  await expect(ui.getByRole('button', { name: 'Export MP4', exact: true })).toBeEnabled();
});
