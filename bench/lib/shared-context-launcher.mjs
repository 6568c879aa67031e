// A TargetLauncher for the memory figure's 1,000 sessions. The web shell's launcher
// (chromium-launcher.ts) gives every target a fresh browser context, which costs Chromium a
// new renderer process per session (0.3 to 0.7 s each on 2 cores): 1,000 of them would not
// fit the bench's five minutes. This one opens each target as a new page of one shared
// context in a Chromium started with --process-per-site, so pages reuse one renderer; the
// transport is the same Playwright CDP session the web shell uses. The host core above it
// (what the figure measures) is unchanged.
import { core, browserPath, chromiumArgs } from './common.mjs';

const { createPlaywrightTransport } = await core('targets/playwright-transport.js');

export function sharedContextLauncher() {
  let started;
  const start = async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: browserPath, headless: true, args: [...chromiumArgs, '--process-per-site'] });
    return { browser, context: await browser.newContext() };
  };
  return {
    async open(url) {
      started ??= start();
      const { context } = await started;
      const page = await context.newPage();
      try {
        const session = await context.newCDPSession(page);
        const transport = createPlaywrightTransport(session, page);
        await page.goto(new URL(url).href);
        let closing;
        return {
          transport,
          close() {
            closing ??= page.close().catch(() => undefined);
            return closing;
          },
        };
      } catch (error) {
        await page.close().catch(() => undefined);
        throw error;
      }
    },
    async close() {
      if (!started) return;
      const { browser } = await started;
      await browser.close().catch(() => undefined);
    },
  };
}
