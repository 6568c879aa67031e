#!/usr/bin/env node
// Builds everything the host runs from: the core (src → <out>/src), the Electron shell
// (electron → <out>/electron, its preloads bundled by build-preloads.mjs), and the renderer
// (renderer → <out>/renderer).
//   node scripts/build.mjs              development build into dist/ (fixture included)
//   node scripts/build.mjs --release    release build: no fixture id, no fixture page, --fixtures refused
//   node scripts/build.mjs --out DIR    build into DIR instead of dist/ (a test's own copy). DIR
//                                       must sit inside the project so that node_modules resolves.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPreloads } from './build-preloads.mjs';
import { render as renderContract } from './gen-contract.mjs';
import { writeGenerated as writePageScripts } from './gen-page-agent.mjs';
import { makeRelease } from './release.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const BUILD_USAGE = 'usage: node scripts/build.mjs [--release] [--out DIR]';

/** Parses build.mjs's arguments; throws with a message naming what was wrong. */
export function parseBuildArgs(argv, cwd = process.cwd()) {
  let release = false;
  let out = path.join(root, 'dist');
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--release') release = true;
    else if (arg === '--out' || arg.startsWith('--out=')) {
      const value = arg === '--out' ? argv[++i] : arg.slice('--out='.length);
      if (!value || value.startsWith('--')) throw new Error('--out needs a folder');
      out = path.resolve(cwd, value);
    } else throw new Error(`unknown argument ${JSON.stringify(arg)}`);
  }
  const relative = path.relative(root, out);
  // Inside the project (node_modules must resolve from the output), never the project itself
  // or a source folder: the output folder is deleted before each build.
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`--out ${out} must be a folder inside ${root} (node_modules resolves from there)`);
  }
  const top = relative.split(path.sep)[0];
  if (['src', 'electron', 'renderer', 'scripts', 'e2e', 'build', 'bin', 'node_modules', 'docs', 'bench'].includes(top)) {
    throw new Error(`--out ${out} is inside the project's own ${top}/ folder; pick dist/ or a scratch folder such as .tmp-build`);
  }
  return { release, out };
}

export function build({ release, out }) {
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const run = (command, args) => {
    try {
      execFileSync(command, args, { cwd: root, stdio: 'inherit' });
    } catch (error) {
      // The command printed why; say which step it was, without a stack.
      throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${error.status ?? error.signal ?? error.message})`, { cause: error });
    }
  };

  rmSync(out, { recursive: true, force: true });
  // The contract's types, regenerated only when stale: rewriting an unchanged file would race
  // with tests that read it while a test builds (scripts/release.test.mjs).
  const generated = path.join(root, 'src', 'contract', 'schema.generated.ts');
  const contract = renderContract();
  if (!existsSync(generated) || readFileSync(generated, 'utf8') !== contract) writeFileSync(generated, contract);
  // The page agent's and the export renderer's injected text, likewise (scripts/gen-page-agent.mjs).
  writePageScripts();
  run(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', out]);
  run(bin('tsc'), ['-p', 'electron/tsconfig.json', '--outDir', out]);
  buildPreloads(path.join(out, 'electron', 'preload'));

  // Data files the compiled core reads at run time (the schema, the fixture page).
  function copyData(from, to) {
    for (const entry of readdirSync(from)) {
      const source = path.join(from, entry);
      const target = path.join(to, entry);
      if (statSync(source).isDirectory()) copyData(source, target);
      else if (/\.(json|html)$/.test(entry)) {
        mkdirSync(to, { recursive: true });
        cpSync(source, target);
      }
    }
  }
  copyData(path.join(root, 'src'), path.join(out, 'src'));

  run(bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn', '--outDir', path.join(out, 'renderer')]);

  if (release) makeRelease(out);
  if (!existsSync(path.join(out, 'renderer', 'index.html'))) throw new Error('renderer build produced no index.html');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args;
  try {
    args = parseBuildArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`build: ${error.message}\n${BUILD_USAGE}\n`);
    process.exit(2);
  }
  try {
    build(args);
  } catch (error) {
    process.stderr.write(`build: ${error.message}\n`);
    process.exit(1);
  }
}
