// Makes the socket's path safe to listen on (HOST-SPEC section 1): the folder is ours and
// private (0700), and a socket file left there is either stale (replaced) or live (refused).
import { mkdir, lstat, unlink, chmod } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export class SocketPathError extends Error {
  override readonly name = 'SocketPathError';
}

function isWindowsPipe(socketPath: string): boolean {
  return socketPath.startsWith('\\\\.\\pipe\\') || socketPath.startsWith('//./pipe/');
}

export async function prepareSocketPath(socketPath: string, uid: number | undefined = process.getuid?.()): Promise<void> {
  if (isWindowsPipe(socketPath)) return; // Named pipes have their own ACLs; there is no folder.
  const folder = path.dirname(socketPath);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const info = await lstat(folder);
  if (!info.isDirectory()) throw new SocketPathError(`${folder} is not a folder; cannot put the socket there`);
  if (uid !== undefined && info.uid !== uid) {
    throw new SocketPathError(`refusing to start: socket folder ${folder} belongs to user ${info.uid}, not to you (${uid})`);
  }
  if ((info.mode & 0o022) !== 0) {
    throw new SocketPathError(
      `refusing to start: socket folder ${folder} is group- or world-writable (mode ${(info.mode & 0o777).toString(8)}); run: chmod 700 ${folder}`,
    );
  }
  // A folder we created may have got the umask's mode; make it exactly 0700 (it is ours).
  if ((info.mode & 0o077) !== 0) await chmod(folder, 0o700);

  let existing;
  try {
    existing = await lstat(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!existing.isSocket()) throw new SocketPathError(`refusing to start: ${socketPath} exists and is not a socket`);
  if (await isListening(socketPath)) {
    throw new SocketPathError(`refusing to start: another CutRight host is already listening at ${socketPath}`);
  }
  await unlink(socketPath); // stale: left by a host that died
}

/** True when something accepts connections on the socket now. */
export function isListening(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

export async function removeSocketFile(socketPath: string): Promise<void> {
  if (isWindowsPipe(socketPath)) return;
  await unlink(socketPath).catch(() => {});
}

/** Belt and braces after listen: the socket file is 0600 whatever the umask was. */
export async function restrictSocketFile(socketPath: string): Promise<void> {
  if (isWindowsPipe(socketPath)) return;
  await chmod(socketPath, 0o600);
}
