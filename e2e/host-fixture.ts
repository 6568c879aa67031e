// Playwright fixtures: a real CutRight host in its own data folder and socket, in the shell the
// project names (`web`: `cutright --ui web --json --fixtures`; `electron`: the Electron app
// through Playwright's `_electron.launch`), its UI, and `ctl`, which runs the real `cutright-ctl`.
import { _electron, test as base, expect, type ElectronApplication, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { findElectronBinary } from '../src/launcher/electron-binary.js';
import { isListening } from '../src/service/socket-guard.js';

const root = path.resolve(import.meta.dirname, '..');

/** Which shell the specs run against: the web shell everywhere, Electron where its binary is installed. */
export type Shell = 'web' | 'electron';
export type ShellOption = { shell: Shell };

export interface RunningHost {
  shell: Shell;
  socket: string;
  /** The UI's address: the web shell's secret URL, or the Electron main window's app URL. */
  uiUrl: string;
  dataDir: string;
  child: ChildProcess;
  stderr: string[];
  /** The Electron app as Playwright drives it (Electron shell only). */
  electron?: ElectronApplication;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface CtlResult {
  code: number | null;
  /** The one JSON line cutright-ctl printed on stdout. */
  json: Record<string, unknown>;
  stderr: string;
}

/** The shell of the project running the current test ('web' outside a test). */
function currentShell(): Shell {
  try {
    return (test.info().project.use as Partial<ShellOption>).shell ?? 'web';
  } catch {
    return 'web';
  }
}

/**
 * Starts the host with `--json --fixtures` in a fresh (or the given) data folder and waits until
 * it is ready, in `shell` (by default the shell of the project running the test).
 */
export async function startHost(extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}, existingDataDir?: string, shell: Shell = currentShell()): Promise<RunningHost> {
  const dataDir = existingDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'cutright-e2e-'));
  const socket = path.join(dataDir, 'run', 'agent-demo.sock');
  const hostArgs = ['--json', '--fixtures', '--data-dir', dataDir, '--socket', socket, ...extraArgs];
  return shell === 'electron' ? startElectronHost(hostArgs, env, dataDir, socket) : startWebHost(hostArgs, env, dataDir, socket);
}

async function startWebHost(hostArgs: string[], env: NodeJS.ProcessEnv, dataDir: string, socket: string): Promise<RunningHost> {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'cutright.js'), '--ui', 'web', ...hostArgs], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    void exited.then((code) => reject(new Error(`cutright exited (${code}) before it was ready:\n${stderr.join('\n')}`)));
  });
  expect(ready).toEqual({ ready: true, socket, ui_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/$/), data_dir: dataDir });
  return {
    shell: 'web',
    socket,
    uiUrl: ready['ui_url'] as string,
    dataDir,
    child,
    stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

async function startElectronHost(hostArgs: string[], env: NodeJS.ProcessEnv, dataDir: string, socket: string): Promise<RunningHost> {
  const executablePath = findElectronBinary();
  if (!executablePath) throw new Error("the electron project needs Electron's binary (npm run electron:install)");
  // Playwright adds Electron's debugging switches (and, on Linux, --no-sandbox) before these;
  // the app takes its own arguments from after main.js (electron/launch-args.ts).
  const electron = await _electron.launch({
    executablePath,
    args: [path.join(root, 'dist', 'electron', 'main.js'), ...hostArgs],
    cwd: root,
    env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter((e): e is [string, string] => e[1] !== undefined)),
  });
  const child = electron.process();
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  // The ready line may pass before Playwright hands over the process: wait for the socket instead.
  const deadline = Date.now() + 30_000;
  while (!(await isListening(socket))) {
    if (child.exitCode !== null) throw new Error(`the Electron app exited (${child.exitCode}) before it was ready:\n${stderr.join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the Electron app did not open its socket within 30 s:\n${stderr.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const host: RunningHost = {
    shell: 'electron',
    socket,
    uiUrl: '',
    dataDir,
    child,
    stderr,
    electron,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      await electron.close().catch(() => {});
      return code;
    },
  };
  host.uiUrl = (await electronWindow(host, 'main')).url();
  return host;
}

/** The `?window=` of a page's address (the app's layout it shows), if any. */
function windowRole(url: string): string | null {
  try {
    return new URL(url).searchParams.get('window');
  } catch {
    return null;
  }
}

/** The open Electron window showing the app's `?window=<role>` layout, waiting for it to open. */
async function electronWindow(host: RunningHost, role: 'main' | 'consent' | 'kill'): Promise<Page> {
  const electron = host.electron!;
  const deadline = Date.now() + 10_000;
  for (;;) {
    // The newest: a consent or kill window that just closed may not have left the list yet.
    const window = electron.windows().filter((page) => !page.isClosed() && windowRole(page.url()) === role).at(-1);
    if (window) {
      await window.waitForLoadState('domcontentloaded');
      return window;
    }
    if (Date.now() > deadline) throw new Error(`no Electron ${role} window opened; open windows: ${electron.windows().map((p) => p.url()).join(', ') || 'none'}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The page showing the host's UI: `page` opened at the web shell's URL, or the Electron main window. */
export async function uiOf(host: RunningHost, page: Page): Promise<Page> {
  if (host.shell === 'electron') return electronWindow(host, 'main');
  await page.goto(host.uiUrl);
  return page;
}

/**
 * Where a person answers consent (`consent`) or presses Stop demo (`kill`): in the web shell,
 * the UI page itself; in Electron, the consent or kill window, once it is open.
 */
export function surfaceOf(host: RunningHost, ui: Page, role: 'consent' | 'kill'): Promise<Page> {
  return host.shell === 'electron' ? electronWindow(host, role) : Promise.resolve(ui);
}

/** Runs `cutright-ctl demo <tool> ...args` against the host's socket. */
export function ctl(host: Pick<RunningHost, 'socket'>, tool: string, ...args: string[]): Promise<CtlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'cutright-ctl.js'), 'demo', tool, ...args], {
      cwd: root,
      env: { ...process.env, CUTRIGHT_SOCKET: host.socket },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = stdout.trim().split('\n').filter(Boolean);
      if (lines.length !== 1) {
        reject(new Error(`cutright-ctl demo ${tool} printed ${lines.length} lines (exit ${code}):\n${stdout}\n${stderr}`));
        return;
      }
      resolve({ code, json: JSON.parse(lines[0]!) as Record<string, unknown>, stderr });
    });
  });
}

export interface BundleRow {
  bundleId: string;
  sessionId: string;
  state: string;
  reason: string | null;
  steps: number;
}

/** The host's bundles as `cutright bundle list --json` prints them. */
export function bundleList(host: Pick<RunningHost, 'dataDir'>): BundleRow[] {
  const result = spawnSync(process.execPath, [path.join(root, 'bin', 'cutright.js'), 'bundle', 'list', '--json', '--data-dir', host.dataDir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cutright bundle list failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as BundleRow[];
}

export function errorCode(result: CtlResult): unknown {
  return (result.json['error'] as { code?: unknown } | undefined)?.code;
}

export interface SnapshotElement {
  ref: string;
  role: string;
  label: string;
  ops: string[];
}

/** Snapshots until the session is armed (calls answer not_armed while it arms). */
export async function snapshotWhenArmed(host: RunningHost, token: string): Promise<SnapshotElement[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const result = await ctl(host, 'snapshot', `token=${token}`);
    if (result.code === 0) return result.json['elements'] as SnapshotElement[];
    if (errorCode(result) !== 'not_armed' || Date.now() > deadline) throw new Error(`snapshot failed: ${JSON.stringify(result.json)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function find(elements: SnapshotElement[], role: string, label: string): SnapshotElement {
  const element = elements.find((e) => e.role === role && e.label === label);
  if (!element) throw new Error(`no ${role} "${label}" in ${JSON.stringify(elements)}`);
  return element;
}

type Fixtures = {
  host: RunningHost;
  /** The UI: the web shell's page, or Electron's main window. */
  ui: Page;
  /** The page where the consent dialog shows (web: `ui`; Electron: the consent window). */
  consentSurface: () => Promise<Page>;
  /** The page where Stop demo is pressed (web: `ui`; Electron: the kill window). */
  killSurface: () => Promise<Page>;
};

export const test = base.extend<Fixtures & ShellOption>({
  shell: ['web', { option: true }],
  host: async ({ shell }, use) => {
    const host = await startHost([], {}, undefined, shell);
    await use(host);
    const code = await host.stop();
    expect(code, `cutright exits 0 on SIGTERM; its stderr:\n${host.stderr.join('\n')}`).toBe(0);
  },
  ui: async ({ page, host }, use) => {
    await use(await uiOf(host, page));
  },
  consentSurface: async ({ host, ui }, use) => {
    await use(() => surfaceOf(host, ui, 'consent'));
  },
  killSurface: async ({ host, ui }, use) => {
    await use(() => surfaceOf(host, ui, 'kill'));
  },
});

export { expect };
