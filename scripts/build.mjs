#!/usr/bin/env node
// Builds everything the host runs from: the core (src → dist/src), the Electron shell
// (electron → dist/electron), and the renderer (renderer → dist/renderer).
//   node scripts/build.mjs            development build (fixture included)
//   node scripts/build.mjs --release  release build: no fixture id, no fixture page, --fixtures refused
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRelease } from './release.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const release = process.argv.includes('--release');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run(process.execPath, [path.join(root, 'scripts', 'gen-contract.mjs')]);
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
run(bin('tsc'), ['-p', 'electron/tsconfig.json']);

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
copyData(path.join(root, 'src'), path.join(root, 'dist', 'src'));

run(bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);

if (release) makeRelease(path.join(root, 'dist'));
if (!existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) throw new Error('renderer build produced no index.html');
