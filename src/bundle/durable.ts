// Small durable-write primitives. "Durable" here means: written, fsynced, and (for a new name)
// the folder holding it fsynced, before the promise resolves.
import { constants } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** fsync a folder so a file created, renamed or removed in it survives a power cut. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes all of `data` at the handle's position (or the end, for O_APPEND). */
export async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    offset += bytesWritten;
  }
}

/** Creates a new file (failing if the name exists), writes it and fsyncs it (not its folder). */
export async function writeNewFile(path: string, data: Buffer, mode = 0o600): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    await writeAll(handle, data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `path` atomically: writes `<path>.tmp`, fsyncs it, renames it over `path`, fsyncs the
 * folder. A crash leaves either the old file (plus maybe a stale .tmp) or the new one, never a mix.
 */
export async function writeFileAtomic(path: string, data: Buffer, mode = 0o600): Promise<void> {
  const tmp = `${path}.tmp`;
  await unlink(tmp).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await writeNewFile(tmp, data, mode);
  await rename(tmp, path);
  await fsyncDir(dirname(path));
}
