#!/usr/bin/env node
// Installs what the host and its tests need, so that `npm start` and `npm test` work on a
// fresh machine: the npm packages from the lock file, and a Chromium for the web shell.
// It changes nothing when everything is already there.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`ensure-deps: ${line}\n`);

function packagesInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return false;
  // npm rewrites node_modules/.package-lock.json on every install: older than the lock means stale.
  return statSync(marker).mtimeMs >= statSync(path.join(root, 'package-lock.json')).mtimeMs - 1000;
}

if (!packagesInstalled()) {
  say('installing npm packages (npm ci)');
  // Electron's own install script downloads its binary from outside the npm registry; where
  // that is blocked, skip it: the web shell runs everything but the Electron glue.
  const env = { ...process.env };
  if (!existsSync(path.join(root, 'node_modules', 'electron', 'dist'))) env.ELECTRON_SKIP_BINARY_DOWNLOAD ??= '1';
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function findChromium() {
  const candidates = [process.env.CUTRIGHT_BROWSER, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((c) => c && existsSync(c));
}

if (!findChromium()) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (hasApt && isRoot) {
    say("installing Debian's chromium package (the web shell drives targets in it)");
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } else {
    say(
      'no Chromium found: install one (Debian/Ubuntu: sudo apt-get install chromium) or set CUTRIGHT_BROWSER to a Chromium-based browser',
    );
    process.exit(1);
  }
}

// A quick sanity check that the lock file's packages match package.json (a hand-edited package.json).
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
  if (!lock.packages?.[`node_modules/${name}`]) {
    say(`package-lock.json has no ${name}: run npm install`);
    process.exit(1);
  }
}
