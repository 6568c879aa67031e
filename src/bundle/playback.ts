// What a player is given of a bundle's recording, and which frame files may be served to it.
// Only a sealed bundle's recording plays: its index must be the one the end event's chain
// recorded (same head), and a frame is served only when the signed manifest lists it with the
// size it has on disk, as a regular file inside the bundle's own folder (no link).
import { lstat, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleEvent } from './format.js';
import { MANIFEST_FILE, SIGNATURE_FILE } from './format.js';
import { FRAME_FILE_PATTERN, RECORDING_DIR, RECORDING_INDEX, parseRecording } from './recording-format.js';
import type { TimelineLine } from './timeline.js';

export interface PlayableRecording {
  lines: TimelineLine[];
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The recording of the bundle in `dir` as its player needs it, or null: not sealed yet, no
 * recording, or an index that is not the one the sealed record names (verify says what is wrong).
 */
export async function playableRecording(dir: string, events: readonly BundleEvent[]): Promise<PlayableRecording | null> {
  const end = events.at(-1);
  if (end?.type !== 'end' || !end.recording) return null;
  if (!(await isFile(join(dir, SIGNATURE_FILE))) || !(await isFile(join(dir, RECORDING_INDEX)))) return null;
  const parsed = parseRecording(await readFile(join(dir, RECORDING_INDEX)));
  if (parsed.problem || parsed.tornTail || parsed.head !== end.recording.head) return null;
  return {
    lines: parsed.lines.map((line): TimelineLine =>
      line.type === 'frame'
        ? { type: 'frame', at: line.at, file: line.file, width: line.width, height: line.height }
        : { type: 'gap', at: line.at, reason: line.reason },
    ),
  };
}

/**
 * The frame files a sealed bundle's manifest lists, with their sizes; cached per bundle while
 * its manifest stays the same file (a player asks for hundreds of frames).
 */
export class ListedFrames {
  private readonly cache = new Map<string, { key: string; sizes: Map<string, number> }>();

  async sizesOf(dir: string): Promise<Map<string, number> | null> {
    if (!(await isFile(join(dir, SIGNATURE_FILE)))) return null;
    const manifestPath = join(dir, MANIFEST_FILE);
    let key: string;
    try {
      const info = await stat(manifestPath);
      key = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch {
      return null;
    }
    const cached = this.cache.get(dir);
    if (cached?.key === key) return cached.sizes;
    let files: unknown;
    try {
      files = (JSON.parse(await readFile(manifestPath, 'utf8')) as { files?: unknown }).files;
    } catch {
      return null;
    }
    if (!Array.isArray(files)) return null;
    const sizes = new Map<string, number>();
    for (const file of files as { path?: unknown; size?: unknown }[]) {
      if (typeof file?.path === 'string' && FRAME_FILE_PATTERN.test(file.path) && typeof file.size === 'number') sizes.set(file.path, file.size);
    }
    this.cache.set(dir, { key, sizes });
    return sizes;
  }

  /** The absolute path of `frame` (`recording/<n>.jpg`) in the sealed bundle `dir`, or null. */
  async pathOf(dir: string, frame: string): Promise<string | null> {
    if (typeof frame !== 'string' || !FRAME_FILE_PATTERN.test(frame)) return null;
    const size = (await this.sizesOf(dir))?.get(frame);
    if (size === undefined) return null;
    const path = join(dir, frame);
    try {
      // The bundle's folder and its recording/ must be real folders: a link could lead out of the data folder.
      if (!(await lstat(dir)).isDirectory() || !(await lstat(join(dir, RECORDING_DIR))).isDirectory()) return null;
      const info = await lstat(path);
      return info.isFile() && info.size === size ? path : null;
    } catch {
      return null;
    }
  }

  forget(dir: string): void {
    this.cache.delete(dir);
  }
}
