#!/usr/bin/env node
// `npm run bench`: measures the host against baselines measured in the same run (issue 6)
// and prints one table: figure, value, baseline, ratio, target, met.
//   node --expose-gc bench/run.mjs [--only=socket,snapshot,accname,act,kill,consent,recording,memory,player,export] [--json=FILE]
// The compiled host is read from dist/ (npm run build), or from CUTRIGHT_DIST.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The run reads a private copy of the build, so that a rebuild of dist/ while it runs (other
// work in the same tree) cannot pull modules or the renderer from under it. The copy sits in
// node_modules/.cache so that the compiled modules still resolve the project's packages.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtDir = path.resolve(process.env.CUTRIGHT_DIST ?? path.join(root, 'dist'));
if (!existsSync(path.join(builtDir, 'src', 'host', 'start-host.js'))) throw new Error(`the host is not built in ${builtDir}: run npm run build`);
if (!existsSync(path.join(builtDir, 'renderer', 'index.html'))) throw new Error(`the renderer is not built in ${builtDir}/renderer: run npm run build`);
const snapshotDir = path.join(root, 'node_modules', '.cache', 'cutright-bench', String(process.pid));
for (const part of ['src', 'renderer']) cpSync(path.join(builtDir, part), path.join(snapshotDir, part), { recursive: true });
process.env.CUTRIGHT_DIST = snapshotDir;
const removeSnapshot = () => rmSync(snapshotDir, { recursive: true, force: true });
process.once('exit', removeSnapshot);

const { browserPath, distDir, rendererDir } = await import('./lib/common.mjs');

// player and export run after memory: their two-minute recordings must not eat the memory figure's budget.
const FIGURES = ['socket', 'snapshot', 'accname', 'act', 'kill', 'consent', 'recording', 'memory', 'player', 'export'];
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg}: expected --only=LIST or --json=FILE`);
    return [match[1], match[2] ?? true];
  }),
);
for (const key of Object.keys(args)) if (!['only', 'json'].includes(key)) throw new Error(`unknown option --${key}: expected --only=LIST or --json=FILE`);
const only = typeof args.only === 'string' ? args.only.split(',').filter(Boolean) : FIGURES;
for (const name of only) if (!FIGURES.includes(name)) throw new Error(`--only: unknown figure "${name}"; figures are ${FIGURES.join(', ')}`);
if (!existsSync(browserPath)) throw new Error(`no Chromium at ${browserPath}: install it or set CUTRIGHT_BROWSER`);

const log = (message) => process.stderr.write(`bench: ${message}\n`);
const chromiumVersion = (() => {
  try {
    return execFileSync(browserPath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
})();
const machine = {
  date: new Date().toISOString(),
  node: process.version,
  chromium: chromiumVersion,
  cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`,
  loadAverageAtStart: os.loadavg().map((n) => n.toFixed(2)).join(' '),
  dist: `${builtDir} (run from a copy in ${distDir})`,
  renderer: rendererDir,
};
log(`${machine.cpus}; load average ${machine.loadAverageAtStart}; ${machine.node}; ${machine.chromium}`);

const started = Date.now();
const results = {};
const rows = [];
// Targets open in a browser started as the web shell starts it (below the host's CPU
// priority); the person's UI pages in a browser of their own, which the host does not start.
let browser;
let uiBrowser;
const needsBrowser = only.some((name) => ['snapshot', 'accname', 'act', 'kill', 'consent', 'recording', 'player', 'export'].includes(name));
try {
  if (needsBrowser) {
    const { launchBrowser, launchUiBrowser } = await import('./lib/harness.mjs');
    browser = await launchBrowser();
    if (only.some((name) => ['consent', 'recording', 'player'].includes(name))) uiBrowser = await launchUiBrowser();
  }
  for (const name of FIGURES.filter((f) => only.includes(f))) {
    const t0 = Date.now();
    log(`${name}…`);
    let result;
    switch (name) {
      case 'socket':
        result = await (await import('./socket-rtt.mjs')).benchSocket({ log });
        break;
      case 'snapshot':
        result = await (await import('./snapshot.mjs')).benchSnapshot({ browser, log });
        break;
      case 'accname':
        result = await (await import('./accname.mjs')).benchAccname({ browser, log });
        break;
      case 'act':
        result = await (await import('./act.mjs')).benchAct({ browser, log });
        break;
      case 'kill':
        result = await (await import('./kill.mjs')).benchKill({ browser, log });
        break;
      case 'consent':
        result = await (await import('./consent.mjs')).benchConsent({ browser, uiBrowser, log });
        break;
      case 'recording':
        result = await (await import('./recording.mjs')).benchRecording({ browser, uiBrowser, log });
        break;
      case 'player':
        result = await (await import('./player.mjs')).benchPlayer({ browser, uiBrowser, log });
        break;
      case 'memory':
        // The 1,000 sessions get 150 s of their own, whatever the figures before took: a share
        // of the run's time left about 60 s here, 155 sessions, too few to measure (the figure
        // says how many ran, and fails when too few did).
        result = await (await import('./memory.mjs')).benchMemory({ log, budgetSeconds: 150 });
        break;
      case 'export':
        result = await (await import('./export.mjs')).benchExport({ browser, log });
        break;
    }
    results[name] = { ...result, seconds: (Date.now() - t0) / 1000 };
    rows.push(...result.rows);
    log(`${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
} finally {
  await browser?.close();
  await uiBrowser?.close();
}
machine.loadAverageAtEnd = os.loadavg().map((n) => n.toFixed(2)).join(' ');
machine.seconds = (Date.now() - started) / 1000;

function table(list) {
  const head = ['figure', 'value', 'baseline', 'ratio', 'target', 'met'];
  const cells = list.map((r) => [
    r.figure,
    r.value,
    r.baseline,
    r.ratio === null || r.ratio === undefined ? '-' : r.ratio.toFixed(2),
    r.target,
    r.met === null ? 'info' : r.met ? 'met' : 'NOT MET',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)));
  const line = (c) => `| ${c.map((v, i) => String(v).padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

process.stdout.write(`\n${table(rows)}\n\n`);
process.stdout.write(`${machine.cpus}; load average ${machine.loadAverageAtStart} at start, ${machine.loadAverageAtEnd} at end; ${machine.node}; ${machine.chromium}; ${machine.seconds.toFixed(0)} s\n`);
const missed = rows.filter((r) => r.met === false).length;
process.stdout.write(missed ? `${missed} target(s) not met (see docs/performance.md for what limits them)\n` : 'every target met\n');
if (typeof args.json === 'string') {
  await writeFile(args.json, JSON.stringify({ machine, rows, results }, null, 2) + '\n');
  log(`wrote ${args.json}`);
}
