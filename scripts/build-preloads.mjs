// Builds the host windows' preloads: each entry in electron/preload/ (main, consent, kill;
// one line each over the one source, expose.ts) is bundled with everything it imports into
// one CommonJS file, because a sandboxed preload may require nothing but 'electron'. The
// platform is 'browser' so that anything of Node slipping in fails the build.
import { readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PRELOAD_SOURCES = path.join(root, 'electron', 'preload');

/** The windows that have a preload entry, by file name (`<role>.ts`). */
export function preloadRoles() {
  return readdirSync(PRELOAD_SOURCES)
    .filter((name) => name.endsWith('.ts') && name !== 'expose.ts' && !/\.test(-support)?\.ts$/.test(name))
    .map((name) => name.slice(0, -'.ts'.length))
    .sort();
}

/** One role's preload as the CommonJS source Electron loads. */
export function bundlePreload(role) {
  const result = buildSync({
    entryPoints: [path.join(PRELOAD_SOURCES, `${role}.ts`)],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'browser',
    target: 'es2023',
    external: ['electron'],
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** Writes `<outDir>/<role>.cjs` for every role; returns the roles. */
export function buildPreloads(outDir) {
  mkdirSync(outDir, { recursive: true });
  const roles = preloadRoles();
  for (const role of roles) writeFileSync(path.join(outDir, `${role}.cjs`), bundlePreload(role));
  return roles;
}
