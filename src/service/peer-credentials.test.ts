import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSsRows, readPeerCredentials, systemPeerEnv, type PeerCredentialsEnv } from './peer-credentials.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A real Unix socket server; resolves its path and the first accepted connection. */
async function listen(): Promise<{ socketPath: string; accepted: Promise<net.Socket> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cutright-peer-'));
  const socketPath = path.join(dir, 'peer test.sock');
  let accept!: (socket: net.Socket) => void;
  const accepted = new Promise<net.Socket>((resolve) => (accept = resolve));
  const server = net.createServer((socket) => accept(socket));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(() => server.close());
  accepted.then((s) => cleanups.push(() => s.destroy()), () => {});
  return { socketPath, accepted };
}

describe.runIf(process.platform === 'linux')('readPeerCredentials on Linux (a real socket)', () => {
  it("finds this test's own pid, executable and user when it connects itself", async () => {
    const { socketPath, accepted } = await listen();
    const client = net.connect(socketPath);
    cleanups.push(() => client.destroy());
    const peer = await readPeerCredentials(await accepted);
    expect(peer).toEqual({
      pid: process.pid,
      executable: realpathSync(process.execPath),
      uid: process.getuid!(),
      user: os.userInfo().username,
      sameUser: true,
      sharedWith: 0,
      unknownReason: null,
    });
  });

  it('finds another process that connects: its pid, not the host’s', async () => {
    const { socketPath, accepted } = await listen();
    const child = spawn(process.execPath, ['-e', `require('net').connect(${JSON.stringify(socketPath)}); setInterval(() => {}, 1000)`], { stdio: 'ignore' });
    cleanups.push(() => child.kill('SIGKILL'));
    const peer = await readPeerCredentials(await accepted);
    expect(peer.pid).toBe(child.pid);
    expect(peer.executable).toBe(realpathSync(process.execPath));
    expect(peer.sameUser).toBe(true);
    expect(peer.unknownReason).toBeNull();
  });

  it('says plainly when the process has gone before it could be read', async () => {
    const { socketPath, accepted } = await listen();
    const child = spawn(process.execPath, ['-e', `require('net').connect(${JSON.stringify(socketPath)}, () => process.exit(0))`], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    const peer = await readPeerCredentials(await accepted);
    expect(peer.pid).toBeNull();
    expect(peer.executable).toBeNull();
    expect(peer.unknownReason).toMatch(/closed|exited/);
  });
});

describe('readPeerCredentials with the machine described', () => {
  const row = (inode: number, peer: number, users = '') => `u_str ESTAB 0 0 /run/a b.sock ${inode} * ${peer}${users}`;
  const fakeSocket = { _handle: { fd: 21 } } as unknown as net.Socket;
  function machine(links: Record<string, string[] | string>, ss: string | Error, files: Record<string, string> = {}): PeerCredentialsEnv {
    const reads = new Map<string, number>();
    return {
      ...systemPeerEnv,
      platform: 'linux',
      ownPid: 100,
      ownUid: 1000,
      run: async () => {
        if (ss instanceof Error) throw ss;
        return ss;
      },
      readlink: async (p) => {
        const answers = links[p];
        if (answers === undefined) throw Object.assign(new Error(`ENOENT ${p}`), { code: 'ENOENT' });
        if (typeof answers === 'string') return answers;
        const n = reads.get(p) ?? 0;
        reads.set(p, n + 1);
        return answers[Math.min(n, answers.length - 1)]!;
      },
      readFile: async (p) => {
        const text = files[p];
        if (text === undefined) throw new Error(`ENOENT ${p}`);
        return text;
      },
    };
  }
  const ssOut = [row(7, 8), row(8, 7, ' users:(("agent",pid=300,fd=5),("agent",pid=301,fd=5))')].join('\n');
  const links = {
    '/proc/100/fd/21': 'socket:[7]',
    '/proc/300/fd/5': 'socket:[8]',
    '/proc/300/exe': '/usr/bin/agent',
    '/proc/301/fd/5': 'socket:[8]',
    '/proc/301/exe': '/usr/bin/agent',
  };
  const files = { '/proc/300/status': 'Name:\tagent\nUid:\t1001\t1001\t1001\t1001\n', '/proc/301/status': 'Uid:\t1001\t1001\t1001\t1001\n', '/etc/passwd': 'root:x:0:0::/root:/bin/sh\nmallory:x:1001:1001::/home/m:/bin/sh\n' };

  it('reads ss rows whose local address holds spaces', () => {
    expect(parseSsRows(ssOut)).toEqual([
      { inode: 7, peerInode: 8, holders: [] },
      { inode: 8, peerInode: 7, holders: [{ pid: 300, fd: 5 }, { pid: 301, fd: 5 }] },
    ]);
  });

  it('names another user, and counts the processes that share the socket', async () => {
    const peer = await readPeerCredentials(fakeSocket, machine(links, ssOut, files));
    expect(peer).toEqual({ pid: 300, executable: '/usr/bin/agent', uid: 1001, user: 'mallory', sameUser: false, sharedWith: 1, unknownReason: null });
  });

  it('never shows a pid that stopped holding the socket while it was read (pid reuse)', async () => {
    // pid 300 exits after its executable is read and a new process takes its number.
    const reused = { ...links, '/proc/300/fd/5': ['socket:[8]', 'socket:[999]'], '/proc/301/fd/5': 'socket:[123]' };
    const peer = await readPeerCredentials(fakeSocket, machine(reused, ssOut, files));
    expect(peer.pid).toBeNull();
    expect(peer.unknownReason).toBe('the process that connected has exited');
  });

  it('says ss is needed when iproute2 is missing', async () => {
    const missing = Object.assign(new Error('spawn ss ENOENT'), { code: 'ENOENT' });
    const peer = await readPeerCredentials(fakeSocket, machine(links, missing, files));
    expect(peer).toMatchObject({ pid: null, executable: null });
    expect(peer.unknownReason).toMatch(/ss command \(package iproute2\) is not installed/);
  });

  it('says so on Windows instead of guessing', async () => {
    const peer = await readPeerCredentials(fakeSocket, { ...systemPeerEnv, platform: 'win32' });
    expect(peer.pid).toBeNull();
    expect(peer.unknownReason).toMatch(/Windows/);
  });
});
