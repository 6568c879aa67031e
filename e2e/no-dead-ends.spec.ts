// No dead ends (issue 13.5): when the host goes away the page says so and how to get back,
// and reconnects by itself when the same host answers again; a wrong or missing secret gets a
// page explaining how to find the right address.
import { spawnSync } from 'node:child_process';
import { expect, startHost, test } from './host-fixture.js';

test.skip(({ shell }) => shell === 'electron', "the web shell's page and address; Electron's windows live in the host's own process");

test('the page reconnects by itself when the connection to the same host comes back', async ({ host, ui }) => {
  await expect(ui.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  // The kernel destroys the page's connection to the host (as a network drop or sleep would);
  // the host itself keeps running.
  const port = new URL(host.uiUrl).port;
  const killed = spawnSync('ss', ['-K', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  test.skip(killed.status !== 0, `ss -K could not destroy the connection here: ${killed.stderr}`);
  const banner = ui.getByRole('alert').filter({ hasText: 'Stop demo cannot reach the host' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('This page reconnects by itself when this host answers again.');
  await expect(banner).toHaveCount(0, { timeout: 20_000 });
  await expect(ui.getByRole('heading', { name: 'Sessions' })).toBeVisible();
});

test('host gone: the page says it is not running and how to get back; started again, it says to open the new address', async ({ host, ui, page }) => {
  await expect(ui.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  const port = new URL(host.uiUrl).port;
  expect(await host.stop()).toBe(0);
  const banner = ui.getByRole('alert').filter({ hasText: 'Stop demo cannot reach the host' });
  await expect(banner).toContainText('CutRight host is not running.');
  await expect(banner).toContainText('start it again (cutright, or npm start in its folder) and open the address it prints');

  const again = await startHost(['--port', port]);
  try {
    await expect(banner).toContainText('CutRight host was started again.', { timeout: 20_000 });
    await expect(banner).toContainText('open the one it printed');
    // The old address now gets the explaining page, not a bare "not found".
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This is not the address of this CutRight host');
    await expect(page.getByText('it printed the address of the UI when it started')).toBeVisible();
  } finally {
    expect(await again.stop()).toBe(0);
  }
});

test('an address without the secret explains how to find the right one', async ({ host, page }) => {
  const response = await page.goto(new URL(host.uiUrl).origin + '/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This is not the address of this CutRight host');
});
