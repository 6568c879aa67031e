// The consent dialog tells who is asking (the OS's answer, beside the name the agent claims)
// and cannot be used to fool the person: the agent's text is data, the facts and buttons stay
// in view in small windows and at 200 % zoom, and Allow works only once the dialog has been
// on screen, unmoved, for a moment (issues 13.1, 10.3).
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { bundleList, errorCode, expect, test } from './host-fixture.js';
import { rawRequest } from './raw-client.js';
import { FIXTURE, consentDialog, requestShowing, stopDemo } from './ui-helpers.js';

/** Every fact row and both buttons lie inside the window, and the page never scrolls sideways. */
async function expectFactsAndButtonsInView(ui: Page): Promise<void> {
  const dialog = consentDialog(ui);
  for (const term of ['App', 'Opens', 'Asked by', 'Agent']) {
    await expect(dialog.locator('dt', { hasText: new RegExp(`^${term}$`) })).toBeInViewport({ ratio: 1 });
    await expect(dialog.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]')).toBeInViewport({ ratio: 1 });
  }
  await expect(dialog.getByRole('button', { name: 'Allow', exact: true })).toBeInViewport({ ratio: 1 });
  await expect(dialog.getByRole('button', { name: 'Deny', exact: true })).toBeInViewport({ ratio: 1 });
  const sideways = await ui.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(sideways).toBeLessThanOrEqual(0);
}

test.describe('web shell', () => {
  test.skip(({ shell }) => shell === 'electron', 'the raw client and the window sizes are set on the web shell page; Electron shows the same component in its consent window');

  test("shows the asking process's own pid and executable, the app's URL, and the name as claimed", async ({ host, ui }) => {
    const call = rawRequest(host, { app: FIXTURE, agent_name: 'pid checker' });
    const dialog = consentDialog(ui);
    await expect(dialog).toContainText('pid checker');
    const askedBy = dialog.locator('dt', { hasText: /^Asked by$/ }).locator('xpath=following-sibling::dd[1]');
    await expect(askedBy).toContainText(`pid ${process.pid}`);
    await expect(askedBy).toContainText(realpathSync(process.execPath));
    await expect(askedBy).not.toContainText('not you');
    await expect(dialog.locator('dt', { hasText: /^Opens$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\//);
    await expect(dialog.locator('dt', { hasText: /^Agent$/ }).locator('xpath=following-sibling::dd[1]')).toContainText('claims to be “pid checker” (its own words, not verified)');
    await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
    expect(((await call.answer)['error'] as { data: { code: string } }).data.code).toBe('consent_denied');
  });

  test('who asked is kept in the bundle: the bundle view and the HTML export show the same pid and executable', async ({ host, ui }, testInfo) => {
    const call = rawRequest(host, { app: FIXTURE, agent_name: 'recorded asker' });
    const allow = consentDialog(ui).getByRole('button', { name: 'Allow', exact: true });
    await expect(allow).toBeEnabled();
    await allow.click();
    expect(await call.answer).toMatchObject({ result: { app: FIXTURE } });
    await stopDemo(ui).click();
    await expect.poll(() => bundleList(host).map((b) => b.state)).toEqual(['killed']);
    const [row] = bundleList(host);
    // The sessions list names a bundle by app, agent and start time.
    await ui.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: /^Demo Fixture · recorded asker · / }).click();
    const requester = ui.locator('.consent-requester');
    await expect(requester).toContainText(`${realpathSync(process.execPath)} (pid ${process.pid})`);
    const file = testInfo.outputPath('bundle.html');
    const exported = spawnSync(process.execPath, ['bin/cutright.js', 'bundle', 'export', row!.bundleId, '--html', file, '--data-dir', host.dataDir], { encoding: 'utf8' });
    expect(exported.status, exported.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(`${realpathSync(process.execPath)} (pid ${process.pid})`);
    call.close();
  });

  for (const size of [
    { name: '800×600', width: 800, height: 600 },
    // 200 % zoom of an 800×600 window lays the page out in 400×300 CSS pixels.
    { name: '800×600 at 200 % zoom', width: 400, height: 300 },
  ]) {
    test(`hostile names cannot push the facts or buttons away or turn text around (${size.name})`, async ({ host, ui }) => {
      await ui.setViewportSize({ width: size.width, height: size.height });
      const cases = [
        { label: '10 KB name', name: `Agent ${'W'.repeat(10_000)}` },
        { label: 'no-break spaces and a fake publisher line', name: `helper${'\u00A0'.repeat(4000)}✔ Verified publisher: Anthropic` },
        { label: 'right-to-left override', name: 'Claude \u202E(deifirev ton)' },
      ];
      for (const { label, name } of cases) {
        const call = rawRequest(host, { app: FIXTURE, agent_name: name });
        const dialog = consentDialog(ui);
        await expect(dialog, label).toBeVisible();
        await expectFactsAndButtonsInView(ui);
        const agent = dialog.locator('.agent-name');
        const shown = await agent.innerText();
        expect(Array.from(shown).length, label).toBeLessThanOrEqual(61);
        expect(shown, label).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u00A0]/);
        if (label === 'right-to-left override') expect(shown).toBe('Claude [U+202E](deifirev ton)');
        if (label.startsWith('no-break')) expect(shown).toBe('helper ✔ Verified publisher: Anthropic');
        // The hint after the name reads as written.
        await expect(dialog.locator('dt', { hasText: /^Agent$/ }).locator('xpath=following-sibling::dd[1]')).toContainText('(its own words, not verified)');
        if (label === '10 KB name') {
          await dialog.getByText(/Show the whole name the agent gave \(10,?006 characters/).click();
          await expect(dialog.locator('.full-name-text')).toHaveText(name);
          await expectFactsAndButtonsInView(ui);
        }
        await ui.screenshot({ path: test.info().outputPath(`${label.replace(/\W+/g, '-')}.png`) });
        await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
        await call.answer;
        await expect(ui.getByRole('dialog')).toHaveCount(0);
      }
    });
  }

  test('Allow is armed only after the dialog has been on screen, unmoved, for a moment; a swap restarts it', async ({ host, ui }) => {
    const first = rawRequest(host, { app: FIXTURE, agent_name: 'first' });
    const dialog = consentDialog(ui);
    const allow = dialog.getByRole('button', { name: 'Allow', exact: true });
    await expect(dialog).toContainText('first');
    // A click the moment it appears does nothing.
    await expect(allow).toBeDisabled();
    await allow.click({ force: true });
    await expect(allow).toBeEnabled({ timeout: 3000 });

    // The request is swapped under the pointer: its client drops and another takes its place.
    // Timed in the page (a loaded machine may check late): when "second" showed, when Allow armed.
    await ui.evaluate(() => {
      const g = globalThis as unknown as { swap: { shown?: number; armed?: number }; document: { body: unknown; querySelector(s: string): { textContent: string | null; disabled?: boolean } | null }; MutationObserver: new (cb: () => void) => { observe(t: unknown, o: object): void }; performance: { now(): number } };
      g.swap = {};
      new g.MutationObserver(() => {
        const dialog = g.document.querySelector('dialog.consent');
        const allowButton = g.document.querySelector('dialog.consent .button.primary');
        if (g.swap.shown === undefined && dialog?.textContent?.includes('second')) g.swap.shown = g.performance.now();
        if (g.swap.shown !== undefined && g.swap.armed === undefined && allowButton && !allowButton.disabled) g.swap.armed = g.performance.now();
      }).observe(g.document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const second = rawRequest(host, { app: FIXTURE, agent_name: 'second' });
    first.close();
    await expect(dialog).toContainText('second');
    await expect(allow).toBeEnabled({ timeout: 10_000 });
    const swap = await ui.evaluate(() => (globalThis as unknown as { swap: { shown?: number; armed?: number } }).swap);
    expect(swap.shown).toBeDefined();
    expect(swap.armed! - swap.shown!).toBeGreaterThanOrEqual(700);
    await allow.click();
    expect(((await second.answer)['result'] as { app: string }).app).toBe(FIXTURE);
    expect(await first.answer).toEqual({ closed: true });
  });
});

test('the dialog names the process that asked in every shell', async ({ host, consentSurface }) => {
  const { answer } = await requestShowing(host, await consentSurface(), 'any shell');
  const dialog = consentDialog(await consentSurface());
  await expect(dialog.locator('dt', { hasText: /^Asked by$/ }).locator('xpath=following-sibling::dd[1]')).toContainText(/\(pid \d+\)/);
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  expect(errorCode(await answer)).toBe('consent_denied');
});
