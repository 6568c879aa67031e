// Opens target pages in a Chromium that the web shell launches with playwright-core (never
// downloaded: the machine's own browser is used).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PermissionMissingError } from '../session/machine.js';
import { lowerCpuPriority } from './cpu-priority.js';
import { createPlaywrightTransport } from './playwright-transport.js';
import type { OpenedTarget, TargetLauncher } from './types.js';

/** The flags every launch uses: no sandbox (containers), no GPU, no background traffic. */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

const DEFAULT_BROWSER = '/usr/bin/chromium';
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome'];

export interface BrowserSearch {
  /** The executable to use, or undefined when none was found. */
  path: string | undefined;
  /** Where it came from. */
  source: 'option' | 'CUTRIGHT_BROWSER' | 'default' | 'PATH' | undefined;
  /** Every place looked at, in order, for messages. */
  tried: string[];
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the browser to launch: the `executablePath` option, else env `CUTRIGHT_BROWSER`, else
 * /usr/bin/chromium, else chromium, chromium-browser or google-chrome on PATH. A browser named
 * by option or environment is the only one tried: naming one means "this one".
 */
export function findBrowser(options: { executablePath?: string; env?: NodeJS.ProcessEnv } = {}): BrowserSearch {
  const env = options.env ?? process.env;
  if (options.executablePath) {
    const path = options.executablePath;
    return { path: isExecutable(path) ? path : undefined, source: isExecutable(path) ? 'option' : undefined, tried: [path] };
  }
  const fromEnv = env.CUTRIGHT_BROWSER;
  if (fromEnv) {
    const ok = isExecutable(fromEnv);
    return { path: ok ? fromEnv : undefined, source: ok ? 'CUTRIGHT_BROWSER' : undefined, tried: [`${fromEnv} (CUTRIGHT_BROWSER)`] };
  }
  const tried = [DEFAULT_BROWSER];
  if (isExecutable(DEFAULT_BROWSER)) return { path: DEFAULT_BROWSER, source: 'default', tried };
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of PATH_NAMES) {
    tried.push(`${name} on PATH`);
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return { path: candidate, source: 'PATH', tried };
    }
  }
  return { path: undefined, source: undefined, tried };
}

export interface ChromiumLauncherOptions {
  /** The browser executable; else CUTRIGHT_BROWSER, else found on the machine (findBrowser). */
  executablePath?: string;
  /** Default true. */
  headless?: boolean;
  /** Told what went wrong that does not stop targets opening (their CPU priority). */
  log?: (message: string) => void;
}

/**
 * Starts the Chromium that targets open in, at a lower CPU priority than the host
 * (cpu-priority.ts). Its own processes are lowered as soon as it runs; the pages it starts
 * later inherit that.
 */
export async function launchTargetBrowser(executablePath: string, options: { headless?: boolean; log?: (message: string) => void } = {}): Promise<Browser> {
  // Loaded on first launch: playwright-core costs tens of MB, which an idle host need not hold.
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, headless: options.headless ?? true, args: [...CHROMIUM_ARGS] });
  const log = options.log ?? (() => {});
  try {
    // Playwright does not say the browser's process id; the browser itself does.
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    await cdp.detach();
    const main = processInfo.find((info) => info.type === 'browser');
    if (main) for (const problem of await lowerCpuPriority(main.id)) log(problem);
    else log('the browser did not name its process: its CPU priority stays as the host\'s');
  } catch (error) {
    log(`could not lower the browser's CPU priority: ${(error as Error).message}`);
  }
  return browser;
}

/**
 * The web shell's one missing "permission": a browser it can start. A missing permission
 * (not a page that failed to load), so the session says so to the agent (permission_missing)
 * and to the person, with the fix.
 */
function noBrowser(what: string): PermissionMissingError {
  return new PermissionMissingError(
    `permission missing: a browser the host can start (${what}). Install Chromium, or point --browser (or CUTRIGHT_BROWSER) at a Chromium-based browser, then request a new session`,
  );
}

/**
 * A TargetLauncher that starts one Chromium on its first `open` and gives each target a fresh
 * browser context (no cookies or storage shared between sessions).
 */
export function createChromiumLauncher(options: ChromiumLauncherOptions = {}): TargetLauncher {
  let browser: Promise<Browser> | undefined;
  let closed = false;

  async function launch(): Promise<Browser> {
    const found = findBrowser({ executablePath: options.executablePath });
    if (!found.path) throw noBrowser(`no browser found to open targets in; tried ${found.tried.join(', ')}`);
    try {
      return await launchTargetBrowser(found.path, options);
    } catch (error) {
      const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw noBrowser(`could not start the browser ${found.path} (tried ${found.tried.join(', ')}): ${why}`);
    }
  }

  function getBrowser(): Promise<Browser> {
    if (!browser) {
      const started = launch();
      browser = started;
      // A failed launch is not cached: the next open tries again.
      started.catch(() => {
        if (browser === started) browser = undefined;
      });
    }
    return browser;
  }

  return {
    async open(url: string): Promise<OpenedTarget> {
      if (closed) throw new Error('the launcher is closed');
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new Error(`cannot open target: ${JSON.stringify(url)} is not a URL`);
      }
      return openInFreshContext(await getBrowser(), parsed.href);
    },
    async close(): Promise<void> {
      closed = true;
      const current = browser;
      browser = undefined;
      if (!current) return;
      const instance = await current.catch(() => undefined);
      await instance?.close().catch(() => undefined);
    },
  };
}

/**
 * Opens `url` in a fresh browser context of `browser` (nothing shared with other sessions) and
 * attaches a CDP session to its page. Closing the target closes the whole context.
 */
export async function openInFreshContext(browser: Browser, url: string): Promise<OpenedTarget & { page: Page; context: BrowserContext }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    const transport = createPlaywrightTransport(session, page);
    await page.goto(url);
    let closing: Promise<void> | undefined;
    return {
      transport,
      page,
      context,
      close() {
        closing ??= context.close().catch(() => undefined);
        return closing;
      },
    };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
