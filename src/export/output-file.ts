// Where an export is written: a file the person named, never inside the bundle (a sealed
// bundle holds exactly its listed files), written under a temporary name beside it and renamed
// into place only when whole, so a failed export leaves nothing half-written.
import { randomBytes } from 'node:crypto';
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { ExportError } from './source.js';

export interface OutputFile {
  /** The final path. */
  path: string;
  /** Where it is written meanwhile. */
  partial: string;
  /** Renames the partial file into place; answers its size. */
  commit(): Promise<number>;
  /** Removes the partial file. */
  discard(): Promise<void>;
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Checks that `file` can be written and is outside `bundleDir`, and reserves its partial file. */
export async function prepareOutput(file: string, bundleDir: string): Promise<OutputFile> {
  const path = resolve(file);
  const folder = dirname(path);
  let realFolder: string;
  try {
    realFolder = await realpath(folder);
  } catch {
    throw new ExportError(`cannot write ${path}: the folder ${folder} does not exist (create it, or name a file in another folder)`);
  }
  if (inside(realFolder, await realpath(bundleDir))) {
    throw new ExportError(`will not write ${path}: it is inside the bundle's folder, and a sealed bundle must hold only its own files (name a file outside ${bundleDir})`);
  }
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw new ExportError(`cannot write ${path}: it is a folder (name a file)`);
  const partial = join(folder, `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`);
  try {
    await (await open(partial, 'wx', 0o600)).close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ExportError(`cannot write in ${folder} (${code}): choose a folder you can write to`);
  }
  return {
    path,
    partial,
    async commit() {
      await rename(partial, path);
      return (await stat(path)).size;
    },
    discard: () => rm(partial, { force: true }),
  };
}
