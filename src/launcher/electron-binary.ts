// Finds Electron's binary without `require('electron')`, which from plain Node tries to
// download the binary when it is missing (and throws where that cannot be done).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding CutRight's package.json, from src/ or from the compiled dist/src/. */
function findProjectRoot(from: string): string {
  let dir = from;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'cutright-host') return dir;
      } catch {
        // not ours; keep walking up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
}

const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The Electron executable, or undefined when it is not installed. */
export function findElectronBinary(env: NodeJS.ProcessEnv = process.env, root: string = projectRoot): string | undefined {
  const electronDir = path.join(root, 'node_modules', 'electron');
  const distDir = env['ELECTRON_OVERRIDE_DIST_PATH'] || path.join(electronDir, 'dist');
  if (!existsSync(distDir)) return undefined;
  let relative: string | undefined;
  try {
    relative = readFileSync(path.join(electronDir, 'path.txt'), 'utf8').trim();
  } catch {
    relative = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : process.platform === 'win32' ? 'electron.exe' : 'electron';
  }
  const binary = path.join(distDir, relative);
  return existsSync(binary) ? binary : undefined;
}

export const ELECTRON_MISSING =
  "Electron's binary is not installed (node_modules/electron/dist is missing; its download is blocked or was skipped)";

export { projectRoot };
