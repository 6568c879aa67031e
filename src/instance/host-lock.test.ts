// The data folder's lock on real files, with real processes for live and dead holders.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBundleStore } from '../bundle/index.js';
import { startHostCore } from '../host/start-host.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import { acquireHostLock, HostRunningError, LOCK_FILE, readRunningHost, socketNotePath, type HostLock } from './host-lock.js';

const held: HostLock[] = [];
const children: { kill(): void }[] = [];
afterEach(async () => {
  for (const lock of held.splice(0)) await lock.release();
  for (const child of children.splice(0)) child.kill();
});

async function folders() {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cutright-lock-'));
  const dataDir = path.join(root, 'data');
  await mkdir(dataDir, { mode: 0o700 });
  await mkdir(path.join(root, 'run'), { mode: 0o700 });
  return { root, dataDir, socketPath: path.join(root, 'run', 'agent-demo.sock') };
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** A running process that is not this one: a host that holds a lock, as far as the lock can tell. */
function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

describe('host lock', () => {
  it('is a user-only file naming this host; a second taker is refused with the holder, and release frees it', async () => {
    const { dataDir, socketPath } = await folders();
    const lock = await acquireHostLock({ dataDir, socketPath });
    held.push(lock);
    const file = path.join(dataDir, LOCK_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: process.pid, socket: socketPath, data_dir: dataDir, ui_url: null });

    await lock.publish('web', 'http://127.0.0.1:1234/secret/');
    expect((await stat(socketNotePath(socketPath)!)).mode & 0o777).toBe(0o600);
    const refused = await acquireHostLock({ dataDir, socketPath: path.join(dataDir, 'other.sock') }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HostRunningError);
    expect((refused as HostRunningError).shared).toBe('data folder');
    expect((refused as HostRunningError).message).toMatch(/already running with this data folder.*pid \d+, socket .*agent-demo\.sock, UI http:\/\/127\.0\.0\.1:1234\/secret\//);
    expect(await readRunningHost(dataDir)).toMatchObject({ pid: process.pid, ui: 'web', ui_url: 'http://127.0.0.1:1234/secret/' });

    await lock.release();
    held.length = 0;
    expect(existsSync(file)).toBe(false);
    expect(existsSync(socketNotePath(socketPath)!)).toBe(false);
    expect(await readRunningHost(dataDir)).toBeNull();
    held.push(await acquireHostLock({ dataDir, socketPath }));
  });

  it('takes over a stale lock: its process is gone, or its pid now belongs to another process', async () => {
    const { dataDir, socketPath } = await folders();
    const file = path.join(dataDir, LOCK_FILE);
    const logged: string[] = [];
    await writeFile(file, JSON.stringify({ pid: deadPid(), proc_start: null, data_dir: dataDir, socket: socketPath, ui: 'web', ui_url: 'http://x/', started_at: '' }));
    expect(await readRunningHost(dataDir)).toBeNull();
    const lock = await acquireHostLock({ dataDir, socketPath, log: (m) => logged.push(m) });
    expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(process.pid);
    expect(logged.join('\n')).toMatch(/took over the lock of a host that is no longer running \(pid \d+\)/);
    await lock.release();

    // A live pid whose start time is not the one recorded: the pid was reused after a crash.
    if (process.platform === 'linux') {
      await writeFile(file, JSON.stringify({ pid: livePid(), proc_start: '1', data_dir: dataDir, socket: socketPath, ui: null, ui_url: null, started_at: '' }));
      held.push(await acquireHostLock({ dataDir, socketPath }));
    }
  });

  it('refuses a start whose socket another host answers on, naming that host, and leaves its data folder unlocked', async () => {
    const { dataDir, socketPath, root } = await folders();
    const running = await acquireHostLock({ dataDir, socketPath });
    held.push(running);
    await running.publish('web', 'http://127.0.0.1:9/s/');
    const server = net.createServer().listen(socketPath);
    children.push({ kill: () => server.close() });
    await new Promise((resolve) => server.once('listening', resolve));

    const otherData = path.join(root, 'other');
    await mkdir(otherData);
    const refused = (await acquireHostLock({ dataDir: otherData, socketPath }).catch((e: unknown) => e)) as HostRunningError;
    expect(refused).toBeInstanceOf(HostRunningError);
    expect(refused.shared).toBe('socket');
    expect(refused.message).toContain('UI http://127.0.0.1:9/s/');
    expect(existsSync(path.join(otherData, LOCK_FILE))).toBe(false);
  });

  it('startHostCore refused by a running host touches nothing: an open bundle stays unsealed', async () => {
    const { dataDir, socketPath } = await folders();
    // A live session's bundle of the running host: open, not sealed.
    const store = await openBundleStore({ dataDir });
    const live = await store.create({ sessionId: 's-live', appId: 'app.x', appName: 'X', agentName: 'a', requestedAt: 1, answeredAt: 2, answeredBy: 'test' });
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: livePid(), proc_start: null, data_dir: dataDir, socket: socketPath, ui: 'web', ui_url: 'http://127.0.0.1:5/s/', started_at: '' }));

    const start = startHostCore({ dataDir, socketPath, fixtures: false, launcher: createChromiumLauncher({}), answeredBy: 'test' });
    await expect(start).rejects.toThrow(/already running with this data folder/);
    const dir = path.join(store.bundlesDir, live.bundleId);
    expect(existsSync(path.join(dir, 'manifest.sig'))).toBe(false);
    expect(existsSync(path.join(dir, 'manifest.json'))).toBe(false);
    expect(existsSync(socketPath)).toBe(false);
  });
});
