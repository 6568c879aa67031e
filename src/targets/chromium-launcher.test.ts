import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChromiumLauncher, findBrowser, launchTargetBrowser } from './chromium-launcher.js';
import { TARGET_PRIORITY } from './cpu-priority.js';

const dir = mkdtempSync(join(tmpdir(), 'cutright-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findBrowser', () => {
  it('uses the option, then CUTRIGHT_BROWSER, and only that one when named', () => {
    expect(findBrowser({ executablePath: '/no/such/browser', env: {} })).toEqual({ path: undefined, source: undefined, tried: ['/no/such/browser'] });
    expect(findBrowser({ env: { CUTRIGHT_BROWSER: '/no/such/env-browser' } }).tried).toEqual(['/no/such/env-browser (CUTRIGHT_BROWSER)']);
    expect(findBrowser({ env: { CUTRIGHT_BROWSER: '/usr/bin/chromium' } })).toMatchObject({ path: '/usr/bin/chromium', source: 'CUTRIGHT_BROWSER' });
  });

  it('falls back to /usr/bin/chromium, then PATH', () => {
    const found = findBrowser({ env: { PATH: dir } });
    if (found.source === 'default') {
      expect(found.path).toBe('/usr/bin/chromium');
      return;
    }
    // Only where /usr/bin/chromium is missing: a browser on PATH is found.
    const fake = join(dir, 'chromium-browser');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    expect(findBrowser({ env: { PATH: dir } })).toMatchObject({ path: fake, source: 'PATH' });
  });
});

describe('createChromiumLauncher', () => {
  it('fails open() with an error naming what was tried when the browser does not exist', async () => {
    const launcher = createChromiumLauncher({ executablePath: join(dir, 'missing-chrome') });
    await expect(launcher.open('http://127.0.0.1:1/')).rejects.toThrow(/no browser found.*missing-chrome/);
    await launcher.close();
  });

  it('fails open() with an error naming the executable when it does not start', async () => {
    const broken = join(dir, 'broken-chrome');
    writeFileSync(broken, '#!/bin/sh\necho broken >&2\nexit 3\n');
    chmodSync(broken, 0o755);
    const launcher = createChromiumLauncher({ executablePath: broken });
    await expect(launcher.open('http://127.0.0.1:1/')).rejects.toThrow(/could not start the browser .*broken-chrome/);
    await launcher.close();
  });

  it('refuses a target address that is not a URL', async () => {
    const launcher = createChromiumLauncher();
    await expect(launcher.open('not a url')).rejects.toThrow(/"not a url" is not a URL/);
    await launcher.close();
  });
});

describe('launchTargetBrowser', () => {
  it("starts the targets' browser below the host's CPU priority, the host left as it was", async () => {
    const ours = os.getPriority();
    const ourGroup = process.platform === 'linux' ? readFileSync('/proc/self/autogroup', 'utf8') : '';
    const problems: string[] = [];
    const browser = await launchTargetBrowser(findBrowser().path!, { log: (message) => problems.push(message) });
    try {
      const cdp = await browser.newBrowserCDPSession();
      const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
      const main = processInfo.find((info) => info.type === 'browser')!;
      expect(problems).toEqual([]);
      expect(os.getPriority(main.id)).toBe(TARGET_PRIORITY);
      expect(os.getPriority()).toBe(ours);
      if (process.platform === 'linux') {
        // Playwright starts the browser in a session of its own: its autogroup is lowered too.
        const theirs = readFileSync(`/proc/${main.id}/autogroup`, 'utf8');
        if (theirs.split(' ')[0] !== ourGroup.split(' ')[0]) expect(theirs.trim()).toMatch(new RegExp(`nice ${TARGET_PRIORITY}$`));
        expect(readFileSync('/proc/self/autogroup', 'utf8')).toBe(ourGroup);
      }
    } finally {
      await browser.close();
    }
  });
});
