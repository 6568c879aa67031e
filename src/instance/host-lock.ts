// One host per data folder and per socket. The lock (`<data>/host.lock`, 0600) is taken before
// anything touches the folder (crash recovery included), so a second `cutright` cannot seal a
// running host's live bundle or write beside it. It names the running host: its pid, socket and
// UI URL, which a refused start and `cutright open` report. A copy beside the socket
// (`<socket>.host`) lets a start with another data folder but the same socket say the same.
// A lock whose process is gone (a crash) is stale and is taken over.
import { constants, readFileSync } from 'node:fs';
import { link, lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic, writeAll } from '../bundle/durable.js';
import { isListening } from '../service/socket-guard.js';

export const LOCK_FILE = 'host.lock';
/** Written by `cutright open` beside the lock; removed with it. */
export const OPEN_PAGE_FILE = 'open-ui.html';

/** What the lock says about the host holding it. */
export interface HostLockInfo {
  pid: number;
  /** The process's start time (Linux: /proc/<pid>/stat field 22), so a reused pid is not taken for the host. */
  proc_start: string | null;
  data_dir: string;
  socket: string;
  /** Which shell serves the UI, once it is up. */
  ui: 'web' | 'electron' | null;
  /** The web shell's URL (secret included); null in the Electron app or before the UI is up. */
  ui_url: string | null;
  started_at: string;
}

/** A start refused because another host holds the data folder or the socket. */
export class HostRunningError extends Error {
  override readonly name = 'HostRunningError';
  constructor(
    /** What the two hosts would share. */
    readonly shared: 'data folder' | 'socket',
    /** What the running host's lock says, when it could be read. */
    readonly running: HostLockInfo | null,
    readonly at: string,
  ) {
    super(describeRunning(shared, running, at));
  }
}

function describeRunning(shared: 'data folder' | 'socket', running: HostLockInfo | null, at: string): string {
  const lead = `another CutRight host is already running with this ${shared} (${at})`;
  if (!running) return `${lead}; nothing was changed`;
  const ui = running.ui_url ? `UI ${running.ui_url}` : running.ui === 'electron' ? 'UI: the CutRight app' : 'UI not up yet';
  return `${lead}: pid ${running.pid}, socket ${running.socket}, ${ui}; nothing was changed (\`cutright open\` shows its UI)`;
}

export interface HostLock {
  readonly info: HostLockInfo;
  /** Records the UI's shell and URL in the lock and beside the socket, for a refused start and `cutright open`. */
  publish(ui: 'web' | 'electron', uiUrl: string | null): Promise<void>;
  /** Removes the lock and the socket's copy, if they are still this host's. */
  release(): Promise<void>;
}

function isWindowsPipe(socketPath: string): boolean {
  return socketPath.startsWith('\\\\.\\pipe\\') || socketPath.startsWith('//./pipe/');
}

/** The socket's copy of the lock's contents, beside it in its 0700 folder. */
export function socketNotePath(socketPath: string): string | null {
  return isWindowsPipe(socketPath) ? null : `${socketPath}.host`;
}

function processStart(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Is the process that wrote `info` still running? (A pid reused by another process is not.) */
export function isHolderAlive(info: HostLockInfo): boolean {
  try {
    process.kill(info.pid, 0);
  } catch (error) {
    // EPERM: it exists but is another user's, so it is not a crashed host of ours; keep it.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (info.proc_start === null) return true;
  const now = processStart(info.pid);
  return now === null || now === info.proc_start;
}

function parseInfo(text: string): HostLockInfo | null {
  try {
    const value = JSON.parse(text) as Partial<HostLockInfo>;
    if (!Number.isSafeInteger(value.pid) || typeof value.socket !== 'string' || typeof value.data_dir !== 'string') return null;
    return {
      pid: value.pid!,
      proc_start: typeof value.proc_start === 'string' ? value.proc_start : null,
      data_dir: value.data_dir,
      socket: value.socket,
      ui: value.ui === 'web' || value.ui === 'electron' ? value.ui : null,
      ui_url: typeof value.ui_url === 'string' ? value.ui_url : null,
      started_at: typeof value.started_at === 'string' ? value.started_at : '',
    };
  } catch {
    return null;
  }
}

/** The text of a lock file, or null when there is none. Never follows a symlink. */
async function readLockText(file: string): Promise<{ text: string; ageMs: number } | null> {
  try {
    const info = await lstat(file);
    if (!info.isFile()) throw new Error(`${file} is not a plain file; remove it if no CutRight host is running`);
    return { text: await readFile(file, 'utf8'), ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The host running with this data folder, if one is (for `cutright open`). */
export async function readRunningHost(dataDir: string): Promise<HostLockInfo | null> {
  const found = await readLockText(path.join(dataDir, LOCK_FILE));
  const info = found && parseInfo(found.text);
  return info && isHolderAlive(info) ? info : null;
}

async function createLockFile(file: string, text: string): Promise<boolean> {
  let handle;
  try {
    // O_EXCL: fails on any existing name, a planted symlink included.
    handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await writeAll(handle, Buffer.from(text));
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Moves a stale lock aside and removes it. If what was moved is no longer the stale text (another
 * starting host took it over meanwhile), it is put back, and the caller looks again.
 */
async function removeStale(file: string, staleText: string): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleText);
  // link, not rename: never overwrite a lock another host has created since.
  if (moved !== staleText) await link(aside, file).catch(() => {});
  await unlink(aside).catch(() => {});
}

/** A lock file that is still being written is given this long before it counts as garbage. */
const UNREADABLE_GRACE_MS = 2_000;

export interface AcquireOptions {
  dataDir: string;
  socketPath: string;
  log?: (message: string) => void;
}

/**
 * Takes the data folder's lock, or throws HostRunningError naming the host that holds it (or
 * the live socket's host). Call before anything reads or writes the folder; the folder must exist.
 */
export async function acquireHostLock(options: AcquireOptions): Promise<HostLock> {
  const log = options.log ?? (() => {});
  const file = path.join(options.dataDir, LOCK_FILE);
  const info: HostLockInfo = {
    pid: process.pid,
    proc_start: processStart(process.pid),
    data_dir: options.dataDir,
    socket: options.socketPath,
    ui: null,
    ui_url: null,
    started_at: new Date().toISOString(),
  };
  let text = JSON.stringify(info) + '\n';
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 20) throw new Error(`could not take the lock ${file}: it keeps changing; is another CutRight host starting?`);
    if (await createLockFile(file, text)) break;
    const found = await readLockText(file);
    if (found === null) continue;
    const holder = parseInfo(found.text);
    if (holder === null && found.ageMs < UNREADABLE_GRACE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    if (holder !== null && isHolderAlive(holder)) throw new HostRunningError('data folder', holder, options.dataDir);
    log(`took over the lock of a host that is no longer running (${holder ? `pid ${holder.pid}` : 'unreadable lock'}) in ${options.dataDir}`);
    await removeStale(file, found.text);
  }

  const note = socketNotePath(options.socketPath);
  const release = async () => {
    for (const owned of [file, note]) {
      if (owned === null) continue;
      const found = await readLockText(owned).catch(() => null);
      if (found && found.text === text) await unlink(owned).catch(() => {});
    }
    await unlink(path.join(options.dataDir, OPEN_PAGE_FILE)).catch(() => {});
  };

  // The same socket with another data folder: the socket answering is the proof it is live.
  if (await isListening(options.socketPath)) {
    await release();
    const found = note ? await readLockText(note).catch(() => null) : null;
    throw new HostRunningError('socket', found ? parseInfo(found.text) : null, options.socketPath);
  }

  return {
    info,
    async publish(ui, uiUrl) {
      info.ui = ui;
      info.ui_url = uiUrl;
      const next = JSON.stringify(info) + '\n';
      await writeFileAtomic(file, Buffer.from(next));
      text = next;
      // The socket's folder is private (checked when the socket was made); a failure here only
      // costs a refused start its UI URL.
      if (note) await writeFileAtomic(note, Buffer.from(next)).catch((error: unknown) => log(`could not write ${note}: ${(error as Error).message}`));
    },
    release,
  };
}
