// Who is on the other end of a connection to the agent socket: the connecting process's pid,
// executable and user, as the operating system knows them (not as the client says). The
// consent dialog shows them beside the name the agent claims. Why this way, and what it
// proves, is in docs/security.md ("Who is asking").
//
// Linux: the peer's socket inode comes from the kernel's socket diagnostics (`ss`, iproute2,
// which asks sock_diag over netlink), the process from /proc, and the answer is checked
// against /proc after reading it so a pid reused in between is never shown.
// macOS: the same through `lsof` (untested here: written and type-checked only).
// Windows: not read yet (the pipe's client pid needs a native call); the dialog says so.
import { execFile } from 'node:child_process';
import { readFile, readlink } from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';

/** The process that connected, as far as the OS tells; unknown parts are null with the reason. */
export interface PeerCredentials {
  pid: number | null;
  /** Absolute path of its executable. */
  executable: string | null;
  uid: number | null;
  /** Its user's login name (or `uid <n>` when it has none). */
  user: string | null;
  /** Whether it runs as the same user as the host; null when unknown. */
  sameUser: boolean | null;
  /** Other processes holding the same socket (a child that inherited it); 0 when none. */
  sharedWith: number;
  /** Why the pid or executable is not known, in words for the person; null when both are. */
  unknownReason: string | null;
}

/** What the reader needs from the machine; tests and other platforms pass their own. */
export interface PeerCredentialsEnv {
  platform: NodeJS.Platform;
  /** Runs a command and resolves its stdout. */
  run(command: string, args: string[]): Promise<string>;
  readFile(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  /** The host's own uid, or null where there is none (Windows). */
  ownUid: number | null;
  ownPid: number;
}

const RUN_TIMEOUT_MS = 3000;

export const systemPeerEnv: PeerCredentialsEnv = {
  platform: process.platform,
  run: (command, args) =>
    new Promise((resolve, reject) => {
      execFile(command, args, { encoding: 'utf8', timeout: RUN_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    }),
  readFile: (path) => readFile(path, 'utf8'),
  readlink: (path) => readlink(path),
  ownUid: typeof process.getuid === 'function' ? process.getuid() : null,
  ownPid: process.pid,
};

export function unknownPeer(reason: string): PeerCredentials {
  return { pid: null, executable: null, uid: null, user: null, sameUser: null, sharedWith: 0, unknownReason: reason };
}

/**
 * The descriptor behind a connected socket. Node keeps it on the socket's libuv handle (on
 * Unix, for pipes and TCP alike) without a public accessor; null where it has none.
 */
export function socketFd(socket: net.Socket): number | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && Number.isInteger(fd) && fd >= 0 ? fd : null;
}

/** Reads the credentials of the process at the other end of `socket` (an accepted connection). */
export async function readPeerCredentials(socket: net.Socket, env: PeerCredentialsEnv = systemPeerEnv): Promise<PeerCredentials> {
  try {
    if (env.platform === 'linux') return await linuxPeer(socket, env);
    if (env.platform === 'darwin') return await macPeer(socket, env);
    if (env.platform === 'win32') return unknownPeer('Windows does not tell this version of CutRight which process opened the pipe');
    return unknownPeer(`reading the connecting process is not supported on ${env.platform}`);
  } catch (error) {
    return unknownPeer(`the connecting process could not be read: ${(error as Error).message}`);
  }
}

// ---- Linux ----

const SOCKET_LINK = /^socket:\[(\d+)\]$/;

/** One row of `ss -xpnH`: the socket's inode, its peer's inode, and the processes holding it. */
export interface UnixSocketRow {
  inode: number;
  peerInode: number;
  holders: Array<{ pid: number; fd: number }>;
}

// Netid State Recv-Q Send-Q Local-Address Inode Peer-Address Peer-Inode [users:((...))]. The
// local address is a path that may hold spaces, so the line is read from both ends.
const SS_ROW = /^\S+\s+\S+\s+\d+\s+\d+\s+.*?\s+(\d+)\s+\S+\s+(\d+)(?:\s+users:\((.*)\))?\s*$/;
const SS_HOLDER = /pid=(\d+),fd=(\d+)/g;

export function parseSsRows(output: string): UnixSocketRow[] {
  const rows: UnixSocketRow[] = [];
  for (const line of output.split('\n')) {
    const match = SS_ROW.exec(line);
    if (!match) continue;
    const holders = [...(match[3] ?? '').matchAll(SS_HOLDER)].map((h) => ({ pid: Number(h[1]), fd: Number(h[2]) }));
    rows.push({ inode: Number(match[1]), peerInode: Number(match[2]), holders });
  }
  return rows;
}

async function linuxPeer(socket: net.Socket, env: PeerCredentialsEnv): Promise<PeerCredentials> {
  const fd = socketFd(socket);
  if (fd === null) return unknownPeer(socket.destroyed ? 'the connection was already closed' : 'the connection has no descriptor to read it from');
  const own = SOCKET_LINK.exec(await env.readlink(`/proc/${env.ownPid}/fd/${fd}`));
  if (!own) return unknownPeer('the connection is not a socket');
  const ownInode = Number(own[1]);
  let output: string;
  try {
    output = await env.run('ss', ['-xpnH']);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return unknownPeer('the ss command (package iproute2) is not installed, and CutRight needs it to see which process is asking');
    }
    throw error;
  }
  const rows = parseSsRows(output);
  const mine = rows.find((row) => row.inode === ownInode);
  if (!mine) return unknownPeer('the connection was already closed');
  const peer = rows.find((row) => row.inode === mine.peerInode);
  // The host never holds the peer's end, unless the client runs inside the host's own process.
  const holders = [...(peer?.holders ?? [])];
  if (holders.length === 0) return unknownPeer('no process this user may inspect holds the other end (it may have exited, or belong to another user)');
  // Several holders: a process that inherited the socket across fork. The oldest (lowest
  // pid, usually the parent that connected) is shown, the others counted.
  holders.sort((a, b) => a.pid - b.pid);
  const verified: PeerCredentials[] = [];
  for (const holder of holders) {
    const found = await linuxProcess(holder, mine.peerInode, env);
    if (found) verified.push(found);
  }
  const first = verified[0];
  if (!first) return unknownPeer('the process that connected has exited');
  return { ...first, sharedWith: verified.length - 1 };
}

/** The process `holder.pid`, if it still holds the socket `inode` at `holder.fd` after it was read. */
async function linuxProcess(holder: { pid: number; fd: number }, inode: number, env: PeerCredentialsEnv): Promise<PeerCredentials | null> {
  const holds = async (): Promise<boolean> => {
    const link = await env.readlink(`/proc/${holder.pid}/fd/${holder.fd}`).catch(() => '');
    return link === `socket:[${inode}]`;
  };
  if (!(await holds())) return null;
  const executable = await env.readlink(`/proc/${holder.pid}/exe`).catch(() => null);
  const status = await env.readFile(`/proc/${holder.pid}/status`).catch(() => '');
  const uidMatch = /^Uid:\s+(\d+)/m.exec(status);
  const uid = uidMatch ? Number(uidMatch[1]) : null;
  // Read again: a pid that exited and was reused while we read is not the one that connected.
  if (!(await holds())) return null;
  const user = uid === null ? null : await userName(uid, env);
  return {
    pid: holder.pid,
    executable,
    uid,
    user,
    sameUser: uid === null || env.ownUid === null ? null : uid === env.ownUid,
    sharedWith: 0,
    unknownReason: executable === null ? 'its executable could not be read' : null,
  };
}

async function userName(uid: number, env: PeerCredentialsEnv): Promise<string> {
  if (uid === env.ownUid) {
    try {
      return os.userInfo().username;
    } catch {
      // fall through to /etc/passwd
    }
  }
  const passwd = await env.readFile('/etc/passwd').catch(() => '');
  for (const line of passwd.split('\n')) {
    const fields = line.split(':');
    if (fields[2] === String(uid) && fields[0]) return fields[0];
  }
  return `uid ${uid}`;
}

// ---- macOS (untested here) ----

/**
 * `lsof -F` prints a connected Unix socket's own kernel address in its `d` field and the
 * peer's as `n->0x…`; the holder of the peer address is the connecting process.
 */
async function macPeer(socket: net.Socket, env: PeerCredentialsEnv): Promise<PeerCredentials> {
  const fd = socketFd(socket);
  if (fd === null) return unknownPeer(socket.destroyed ? 'the connection was already closed' : 'the connection has no descriptor to read it from');
  const mine = await env.run('lsof', ['-n', '-P', '-a', '-p', String(env.ownPid), '-d', String(fd), '-U', '-F', 'dn']);
  const peerAddress = /^n->(0x[0-9a-f]+)/m.exec(mine)?.[1];
  if (!peerAddress) return unknownPeer('the connection was already closed');
  const all = await env.run('lsof', ['-n', '-P', '-U', '-F', 'pdn']);
  let current: number | null = null;
  let pid: number | null = null;
  for (const line of all.split('\n')) {
    if (line.startsWith('p')) current = Number(line.slice(1));
    else if (line === `d${peerAddress}` && current !== null && current !== env.ownPid) {
      pid = current;
      break;
    }
  }
  if (pid === null) return unknownPeer('no process this user may inspect holds the other end');
  const executable = (await env.run('ps', ['-o', 'comm=', '-p', String(pid)]).catch(() => '')).trim() || null;
  const uidText = (await env.run('ps', ['-o', 'uid=', '-p', String(pid)]).catch(() => '')).trim();
  const uid = /^\d+$/.test(uidText) ? Number(uidText) : null;
  return {
    pid,
    executable,
    uid,
    user: uid === null ? null : uid === env.ownUid ? os.userInfo().username : `uid ${uid}`,
    sameUser: uid === null || env.ownUid === null ? null : uid === env.ownUid,
    sharedWith: 0,
    unknownReason: executable === null ? 'its executable could not be read' : null,
  };
}
