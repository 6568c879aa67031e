// Release gating (HOST-SPEC section 6): builds a real release once, into a scratch folder laid
// out as electron-builder packs the app (package.json + dist/), and proves that nothing in it
// mentions the fixture, that electron-builder's `files` leave the fixture and test files out,
// and that the release launcher refuses --fixtures and runs without it.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBuildArgs } from './build.mjs';
import { assertReleaseBuild } from './release.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const FIXTURE_ID = 'app.orthiclabs.demo-fixture';
const FIXTURE_PAGE = readFileSync(path.join(root, 'src', 'targets', 'fixture', 'fixture.html'), 'utf8');
const REFUSAL = 'cutright: --fixtures is not available in a release build';

/** Every file under `dir`, as paths relative to it with forward slashes. */
function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, prefix))) {
    const relative = prefix ? `${prefix}/${entry}` : entry;
    if (statSync(path.join(dir, relative)).isDirectory()) out.push(...listFiles(dir, relative));
    else out.push(relative);
  }
  return out;
}

/** Runs `cutright <args>` from the release build's own compiled launcher. */
function releaseLauncher(app, args, env = {}) {
  const launcher = pathToFileURL(path.join(app, 'dist', 'src', 'launcher', 'cutright.js')).href;
  const { CUTRIGHT_FIXTURES: _ignored, ...baseEnv } = process.env;
  return spawn(
    process.execPath,
    ['--input-type=module', '-e', `const m = await import(${JSON.stringify(launcher)}); process.exitCode = await m.main(process.argv.slice(1));`, '--', ...args],
    { cwd: root, env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function collect(child) {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return exit;
}

describe('build.mjs arguments', () => {
  it('builds into dist/ by default, or into --out inside the project', () => {
    expect(parseBuildArgs([])).toEqual({ release: false, out: path.join(root, 'dist') });
    expect(parseBuildArgs(['--release', '--out', '.tmp-x/dist'], root)).toEqual({ release: true, out: path.join(root, '.tmp-x', 'dist') });
    expect(parseBuildArgs(['--out=.tmp-y'], root).out).toBe(path.join(root, '.tmp-y'));
  });

  it('refuses an --out it would wipe wrongly or where node_modules cannot resolve, and unknown arguments', () => {
    expect(() => parseBuildArgs(['--out'])).toThrow('--out needs a folder');
    expect(() => parseBuildArgs(['--out', os.tmpdir()])).toThrow(/must be a folder inside/);
    expect(() => parseBuildArgs(['--out', '.'], root)).toThrow(/must be a folder inside/);
    expect(() => parseBuildArgs(['--out', 'src/out'], root)).toThrow(/own src\/ folder/);
    expect(() => parseBuildArgs(['--relase'])).toThrow('unknown argument "--relase"');
  });
});

describe('a release build', () => {
  // The app as electron-builder packs it: package.json beside dist/. Inside the project so that
  // node_modules resolves; .tmp-* is ignored by git and eslint.
  let app;
  let files;

  beforeAll(async () => {
    app = mkdtempSync(path.join(root, '.tmp-release-'));
    const build = await collect(spawn(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--release', '--out', path.join(app, 'dist')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }));
    if (build.code !== 0) throw new Error(`the release build failed (${build.code}):\n${build.stdout}\n${build.stderr}`);
    copyFileSync(path.join(root, 'package.json'), path.join(app, 'package.json'));
    files = listFiles(app);
  }, 300_000);

  afterAll(() => {
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('mentions neither the fixture id nor the fixture page in any file', () => {
    expect(files).toContain('dist/src/launcher/cutright.js');
    expect(files).toContain('dist/electron/main.js');
    const mentions = [];
    for (const file of files) {
      const text = readFileSync(path.join(app, file), 'latin1');
      for (const marker of [FIXTURE_ID, 'Demo Fixture', 'fixture.html', 'go-private', 'Private mode: this page is not safe to capture', FIXTURE_PAGE]) {
        if (text.includes(marker)) mentions.push(`${file}: ${marker.slice(0, 60)}`);
      }
    }
    expect(mentions).toEqual([]);
    expect(files.filter((f) => /fixture-server|fixture\.html|\.map$|\.test\.|\.test-support\./.test(f))).toEqual([]);
    // No compiled file points at a source map the release left out.
    const compiled = files.filter((f) => /^dist\/(src|electron)\/.*\.js$/.test(f));
    expect(compiled.filter((f) => readFileSync(path.join(app, f), 'utf8').includes('//# sourceMappingURL='))).toEqual([]);
  });

  it('has a renderer bundle, and it mentions no fixture', () => {
    const renderer = files.filter((f) => f.startsWith('dist/renderer/'));
    expect(renderer).toContain('dist/renderer/index.html');
    expect(renderer.some((f) => f.endsWith('.js'))).toBe(true);
    for (const file of renderer) {
      const text = readFileSync(path.join(app, file), 'utf8');
      expect(text, file).not.toContain(FIXTURE_ID);
      expect(text, file).not.toContain('Demo Fixture');
    }
  });

  it("electron-builder's files patterns take every release file and leave out the fixture and test files", () => {
    const config = require('../build/electron-builder.config.cjs');
    // electron-builder's own matcher, as it applies `files` to the app folder.
    const { FileMatcher } = require('app-builder-lib/out/fileMatcher');
    const included = new FileMatcher(root, '', (s) => s, config.files).createFilter();
    const isFile = { isDirectory: () => false };
    const isDir = { isDirectory: () => true };
    const take = (relative, stat = isFile) => included(path.join(root, relative), stat);

    for (const file of files) expect(take(file), file).toBe(true);
    // What a development dist/ holds and a package must not.
    const devOnly = [
      'dist/src/targets/fixture/fixture.html',
      'dist/src/targets/fixture/fixture-server.js',
      'dist/src/contract/fixture-id.js.map',
      'dist/src/bundle/bundle.test-support.js',
      'dist/src/host/host.test.js',
      'dist/electron/stand-ins.test-support.js',
    ];
    for (const file of devOnly) expect(take(file), file).toBe(false);
    expect(take('dist/src/targets/fixture', isDir)).toBe(false);
    // Nothing else of the project (sources, tests, scratch folders) is packed.
    for (const file of ['src/contract/fixture-id.ts', 'e2e/session.spec.ts', 'scripts/release.mjs', 'README.md']) expect(take(file), file).toBe(false);
  });

  it('passes the check electron-builder runs before packing, which a development build fails', () => {
    expect(() => assertReleaseBuild(path.join(app, 'dist'))).not.toThrow();
    expect(typeof require('../build/electron-builder.config.cjs').beforePack).toBe('function');

    const dev = mkdtempSync(path.join(os.tmpdir(), 'cutright-dev-build-'));
    try {
      mkdirSync(path.join(dev, 'src', 'launcher'), { recursive: true });
      writeFileSync(path.join(dev, 'src', 'launcher', 'build-flavor.js'), 'export const RELEASE_BUILD = false;\n');
      expect(() => assertReleaseBuild(dev)).toThrow(/is not a release build/);
      writeFileSync(path.join(dev, 'src', 'launcher', 'build-flavor.js'), 'export const RELEASE_BUILD = true;\n');
      writeFileSync(path.join(dev, 'src', 'launcher', 'options.js'), `// offers ${FIXTURE_ID}\n`);
      expect(() => assertReleaseBuild(dev)).toThrow(`still mentions the fixture: src/launcher/options.js (${FIXTURE_ID})`);
    } finally {
      rmSync(dev, { recursive: true, force: true });
    }
  });

  it('refuses --fixtures (and CUTRIGHT_FIXTURES=1) with a clear message and exit 2', async () => {
    const flag = await collect(releaseLauncher(app, ['--fixtures', '--ui', 'web']));
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(REFUSAL);
    expect(flag.stdout).toBe('');
    const env = await collect(releaseLauncher(app, ['--ui', 'web'], { CUTRIGHT_FIXTURES: '1' }));
    expect(env.code).toBe(2);
    expect(env.stderr).toContain(REFUSAL);
  });

  it('starts without --fixtures, lists no fixture app, refuses the fixture id, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cutright-release-'));
    const socket = path.join(dataDir, 'agent.sock');
    const child = releaseLauncher(app, ['--ui', 'web', '--json', '--data-dir', dataDir, '--socket', socket]);
    const exited = collect(child);
    try {
      const ready = await new Promise((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
        void exited.then((r) => reject(new Error(`the release host exited (${r.code}) before it was ready:\n${r.stderr}`)));
      });
      expect(ready).toEqual({ ready: true, socket, ui_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//), data_dir: dataDir });

      // The release build's own client, over the real socket.
      const { DemoClient } = await import(pathToFileURL(path.join(app, 'dist', 'src', 'client', 'client.js')).href);
      const client = await DemoClient.connect(socket);
      try {
        const { apps } = await client.call('demo.apps', {});
        expect(apps).toEqual([]);
        await expect(client.call('demo.request', { app: FIXTURE_ID, agent_name: 'release test' })).rejects.toMatchObject({ code: 'unknown_app' });
      } finally {
        await client.close();
      }

      child.kill('SIGTERM');
      const result = await exited;
      expect(result.code, result.stderr).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

});
