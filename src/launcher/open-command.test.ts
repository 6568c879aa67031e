// `cutright open` against a real lock, and a real BROWSER command it runs.
import { chmod, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireHostLock, OPEN_PAGE_FILE, type HostLock } from '../instance/host-lock.js';
import { main } from './cutright.js';
import { runOpenCommand } from './open-command.js';

const held: HostLock[] = [];
afterEach(async () => {
  for (const lock of held.splice(0)) await lock.release();
});

function io(env: NodeJS.ProcessEnv = {}) {
  const captured = { stdout: '', stderr: '' };
  return {
    captured,
    io: {
      stdout: { write: (t: string) => ((captured.stdout += t), true) } as NodeJS.WritableStream,
      stderr: { write: (t: string) => ((captured.stderr += t), true) } as NodeJS.WritableStream,
      env,
    },
  };
}

async function runningHost(uiUrl: string | null, ui: 'web' | 'electron' = 'web') {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cutright-open-'));
  const dataDir = path.join(root, 'data');
  await mkdir(dataDir, { mode: 0o700 });
  const lock = await acquireHostLock({ dataDir, socketPath: path.join(root, 'agent-demo.sock') });
  held.push(lock);
  await lock.publish(ui, uiUrl);
  return { root, dataDir };
}

describe('cutright open', () => {
  it("prints the running host's UI URL, or its facts as JSON", async () => {
    const url = 'http://127.0.0.1:4567/Zm9vYmFyc2VjcmV0/';
    const { dataDir } = await runningHost(url);
    const printed = io();
    expect(await runOpenCommand(['--print', '--data-dir', dataDir], printed.io)).toBe(0);
    expect(printed.captured.stdout).toBe(`${url}\n`);
    const json = io({ CUTRIGHT_DATA_DIR: dataDir });
    expect(await runOpenCommand(['--json'], json.io)).toBe(0);
    expect(JSON.parse(json.captured.stdout)).toEqual({ pid: process.pid, socket: expect.stringMatching(/agent-demo\.sock$/), ui: 'web', ui_url: url, data_dir: dataDir });
  });

  it('opens the URL in BROWSER through a user-only page, never putting the secret on a command line', async () => {
    const url = 'http://127.0.0.1:4567/c2VjcmV0LXNlY3JldA/';
    const { root, dataDir } = await runningHost(url);
    const browser = path.join(root, 'browser.sh');
    const seen = path.join(root, 'seen');
    await writeFile(browser, `#!/bin/sh\nprintf '%s' "$*" > '${seen}'\n`);
    await chmod(browser, 0o700);
    const run = io({ BROWSER: browser });
    expect(await runOpenCommand(['--data-dir', dataDir], run.io)).toBe(0);
    expect(run.captured.stderr).toBe('');
    const argument = await readFile(seen, 'utf8');
    expect(argument).toBe(path.join(dataDir, OPEN_PAGE_FILE));
    expect(argument).not.toContain('c2VjcmV0LXNlY3JldA');
    expect((await stat(argument)).mode & 0o777).toBe(0o600);
    expect(await readFile(argument, 'utf8')).toContain(`<meta http-equiv="refresh" content="0;url=${url}">`);
    // The page goes with the host's lock.
    await held.pop()!.release();
    await expect(stat(argument)).rejects.toThrow(/ENOENT/);
  });

  it('says when no host runs with the data folder, and what the Electron app is', async () => {
    const none = io();
    const empty = await mkdtemp(path.join(os.tmpdir(), 'cutright-open-'));
    expect(await runOpenCommand(['--data-dir', empty], none.io)).toBe(1);
    expect(none.captured.stderr).toMatch(/no CutRight host is running with the data folder .*; start one with `cutright`/);
    const { dataDir } = await runningHost(null, 'electron');
    const app = io();
    expect(await runOpenCommand(['--data-dir', dataDir], app.io)).toBe(0);
    expect(app.captured.stdout).toMatch(/The CutRight app \(pid \d+\) is running: its window is on your desktop/);
  });

  it('has --help, refuses unknown arguments, and is in the launcher help', async () => {
    const help = io();
    expect(await main(['open', '--help'], help.io)).toBe(0);
    expect(help.captured.stdout).toMatch(/^usage: cutright open /);
    const bad = io();
    expect(await main(['open', '--nope'], bad.io)).toBe(2);
    expect(bad.captured.stderr).toMatch(/unknown argument "--nope"/);
    const launcher = io();
    expect(await main(['--help'], launcher.io)).toBe(0);
    expect(launcher.captured.stdout).toContain('cutright open [--data-dir DIR]');
  });
});
