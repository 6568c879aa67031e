// Playwright fixtures: a real CutRight host (`cutright --ui web --json --fixtures`) in its own
// data folder and socket, the UI page, and `ctl`, which runs the real `cutright-ctl`.
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');

export interface RunningHost {
  socket: string;
  uiUrl: string;
  dataDir: string;
  child: ChildProcess;
  stderr: string[];
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface CtlResult {
  code: number | null;
  /** The one JSON line cutright-ctl printed on stdout. */
  json: Record<string, unknown>;
  stderr: string;
}

/** Starts `cutright --ui web --json --fixtures` in a fresh (or the given) data folder and waits for its ready line. */
export async function startHost(extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}, existingDataDir?: string): Promise<RunningHost> {
  const dataDir = existingDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'cutright-e2e-'));
  const socket = path.join(dataDir, 'run', 'agent-demo.sock');
  const child = spawn(process.execPath, [path.join(root, 'bin', 'cutright.js'), '--ui', 'web', '--json', '--fixtures', '--data-dir', dataDir, '--socket', socket, ...extraArgs], {
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

/** Which shell the specs run against: the web shell everywhere, Electron where its binary is installed. */
export type ShellOption = { shell: 'web' | 'electron' };
type Fixtures = { host: RunningHost; ui: Page };

export const test = base.extend<Fixtures & ShellOption>({
  shell: ['web', { option: true }],
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const host = await startHost();
    await use(host);
    const code = await host.stop();
    expect(code, `cutright exits 0 on SIGTERM; its stderr:\n${host.stderr.join('\n')}`).toBe(0);
  },
  ui: async ({ page, host }, use) => {
    await page.goto(host.uiUrl);
    await use(page);
  },
});

export { expect };
