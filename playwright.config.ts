import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import type { ShellOption } from './e2e/host-fixture.js';
import { findElectronBinary } from './src/launcher/electron-binary.js';

// No browser is ever downloaded: the web shell's pages open in the machine's Chromium.
const chromium = process.env['CUTRIGHT_BROWSER'] ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const electron = findElectronBinary();
if (!electron && process.env['TEST_WORKER_INDEX'] === undefined) {
  console.log("playwright: the 'electron' project is skipped: Electron's binary is not installed (node_modules/electron/dist is missing); the same specs run in the 'web' project");
}

const browser = {
  browserName: 'chromium' as const,
  launchOptions: {
    ...(chromium ? { executablePath: chromium } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
};

export default defineConfig<ShellOption>({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  outputDir: 'test-results',
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'web', use: { shell: 'web', ...browser } },
    // The same specs against the Electron app (e2e/host-fixture.ts launches it with
    // _electron.launch); the browser above only backs Playwright's `page` fixture there.
    ...(electron ? [{ name: 'electron', use: { shell: 'electron' as const, ...browser } }] : []),
  ],
});
