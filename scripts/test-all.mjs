#!/usr/bin/env node
// `npm test`: every check and every suite, then one line `N passed, N failed` summing them all.
//   1. the generated contract types and page agent are current   2. type-check   3. lint   3b. the Electron audit
//   4. unit and integration tests (Vitest)          5. the build   6. end-to-end tests (Playwright)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const reports = mkdtempSync(path.join(os.tmpdir(), 'cutright-test-'));
const rows = [];
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name, command, args, env = {}) {
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(name, command, args) {
  const ok = step(name, command, args);
  if (ok) passed += 1;
  else failed += 1;
  rows.push(`${name}: ${ok ? 'ok' : 'FAILED'}`);
  return ok;
}

check('contract types are generated from the schema', process.execPath, ['scripts/gen-contract.mjs', '--check']);
check('the page agent is generated from src/targets/page-agent/', process.execPath, ['scripts/gen-page-agent.mjs', '--check']);
check("the export's player script is generated from src/bundle/player-page/", process.execPath, ['scripts/gen-player-script.mjs', '--check']);
check('type-check', process.execPath, ['scripts/typecheck.mjs']);
check('lint', bin('eslint'), ['.', '--max-warnings=0']);
check('Electron security audit (electronegativity)', process.execPath, ['scripts/audit-electron.mjs']);
check('app icon is generated from build/make-icon.mjs', process.execPath, ['build/make-icon.mjs', '--check']);

const vitestReport = path.join(reports, 'vitest.json');
const vitestOk = step('unit and integration tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
if (existsSync(vitestReport)) {
  const r = JSON.parse(readFileSync(vitestReport, 'utf8'));
  const suiteFailures = (r.testResults ?? []).filter((t) => t.status === 'failed' && (t.assertionResults ?? []).length === 0).length;
  passed += r.numPassedTests;
  failed += r.numFailedTests + suiteFailures;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  rows.push(`vitest: ${r.numPassedTests} passed, ${r.numFailedTests + suiteFailures} failed`);
  if (!vitestOk && r.numFailedTests + suiteFailures === 0) {
    failed += 1;
    rows.push('vitest: exited non-zero');
  }
} else {
  failed += 1;
  rows.push('vitest: no report (it did not run)');
}

const built = check('build', process.execPath, ['scripts/build.mjs']);
const e2eReport = path.join(reports, 'playwright.json');
if (built) {
  // Electron's windows need a display: on a headless Linux machine that has Electron's binary,
  // run the e2e tests under xvfb-run when it is installed (the web project needs none).
  const electronThere = existsSync(path.join(root, 'node_modules', 'electron', 'dist')) || Boolean(process.env.ELECTRON_OVERRIDE_DIST_PATH);
  const needsDisplay = electronThere && process.platform === 'linux' && !process.env.DISPLAY && existsSync('/usr/bin/xvfb-run');
  const [e2eCommand, e2eArgs] = needsDisplay
    ? ['/usr/bin/xvfb-run', ['-a', bin('playwright'), 'test', '--reporter=list,json']]
    : [bin('playwright'), ['test', '--reporter=list,json']];
  const e2eOk = step('end-to-end tests (playwright)', e2eCommand, e2eArgs, { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport });
  if (existsSync(e2eReport)) {
    const s = JSON.parse(readFileSync(e2eReport, 'utf8')).stats ?? {};
    const ok = (s.expected ?? 0) + (s.flaky ?? 0);
    const bad = s.unexpected ?? 0;
    passed += ok;
    failed += bad;
    skipped += s.skipped ?? 0;
    rows.push(`playwright: ${ok} passed, ${bad} failed, ${s.skipped ?? 0} skipped`);
    if (!e2eOk && bad === 0) {
      failed += 1;
      rows.push('playwright: exited non-zero');
    }
  } else {
    failed += 1;
    rows.push('playwright: no report (it did not run)');
  }
} else {
  failed += 1;
  rows.push('playwright: not run (the build failed)');
}

process.stdout.write(`\n== summary\n${rows.map((r) => `  ${r}`).join('\n')}\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed === 0 ? 0 : 1);
