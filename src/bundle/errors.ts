// Write failures of a bundle, classified so the host can end the session `killed` with a reason
// the person understands ('disk full' or 'data folder unwritable').

/** Why a bundle write failed, as the end reason the host records. */
export type DiskProblem = 'disk full' | 'data folder unwritable';

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
// Everything else the file system can answer a write with means "this folder does not take our
// writes": permissions, a read-only mount, the folder replaced or removed, an I/O error.
const UNWRITABLE_CODES = new Set([
  'EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT', 'EISDIR', 'ELOOP', 'EEXIST', 'EIO', 'EBADF',
  'ENAMETOOLONG', 'EMLINK', 'ENXIO', 'ETXTBSY', 'EBUSY', 'ESTALE', 'EINVAL',
]);

/** The disk problem behind a file-system error, or null when it is not one. */
export function diskProblemOf(error: unknown): DiskProblem | null {
  if (error instanceof BundleWriteError) return error.diskProblem;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (DISK_FULL_CODES.has(code)) return 'disk full';
  if (UNWRITABLE_CODES.has(code)) return 'data folder unwritable';
  return null;
}

/** A bundle write that did not reach the disk. Nothing that depends on it may be reported done. */
export class BundleWriteError extends Error {
  override readonly name = 'BundleWriteError';
  readonly diskProblem: DiskProblem;
  /** The file-system error code, e.g. `ENOSPC`. */
  readonly code: string;

  constructor(what: string, cause: unknown, diskProblem: DiskProblem) {
    const code = String((cause as { code?: unknown } | null)?.code ?? 'EUNKNOWN');
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`${what} failed (${diskProblem}): ${detail}`, { cause });
    this.diskProblem = diskProblem;
    this.code = code;
  }
}

/** Wraps a file-system error as a BundleWriteError; other errors pass through unchanged. */
export function asWriteError(what: string, error: unknown): unknown {
  if (error instanceof BundleWriteError) return error;
  const problem = diskProblemOf(error);
  return problem ? new BundleWriteError(what, error, problem) : error;
}
