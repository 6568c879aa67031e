#!/usr/bin/env node
// Static security audit of the Electron shell with @doyensec/electronegativity (offline).
// Every finding must be explained in electron/audit-allowlist.json (check, file, the flagged
// code, and why it is not a problem); anything unexplained, and any allowlist entry that no
// longer matches a finding, fails the audit.
//   node scripts/audit-electron.mjs [--keep]     (--keep: leave the staging folder and report)
//
// electronegativity reads .js/.ts/.html only, so the shipped sources are staged in a
// temporary folder first: electron/**/*.ts without tests (a .cts, should there be one, as .ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ELECTRON_DIR = path.join(root, 'electron');
const ALLOWLIST = path.join(ELECTRON_DIR, 'audit-allowlist.json');

/** The files the audit scans: what ships, not the tests. */
export function isAuditedSource(name) {
  return /\.(c?ts)$/.test(name) && !/\.test\.ts$/.test(name) && !/\.test-support\.ts$/.test(name) && !name.endsWith('.d.ts');
}

/** Copies electron/ sources to `stage`; returns staged relative path → repository path. */
export function stageSources(from, stage, repoRoot = root) {
  const origin = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        walk(full);
        continue;
      }
      if (!isAuditedSource(entry)) continue;
      const relative = path.relative(from, full);
      const staged = relative.replace(/\.cts$/, '.ts');
      mkdirSync(path.dirname(path.join(stage, staged)), { recursive: true });
      copyFileSync(full, path.join(stage, staged));
      origin.set(staged.split(path.sep).join('/'), path.relative(repoRoot, full).split(path.sep).join('/'));
    }
  };
  walk(from);
  return origin;
}

/**
 * Findings from electronegativity's SARIF output, each with the repository file, the line
 * and the flagged line's code (trimmed), which the allowlist matches on (line numbers move).
 */
export function findingsFromSarif(sarif, origin, readStaged) {
  const findings = [];
  for (const run of sarif.runs ?? []) {
    for (const result of run.results ?? []) {
      const location = result.locations?.[0]?.physicalLocation;
      const uri = location?.artifactLocation?.uri;
      const line = location?.region?.startLine ?? 0;
      // App-wide findings (no CSP anywhere) come with "N/A" or "file:///" for a location.
      const staged = uri && uri !== 'N/A' && !/^file:\/*$/.test(uri) ? uri.split('\\').join('/') : null;
      const known = staged !== null && origin.has(staged);
      const file = staged ? (origin.get(staged) ?? staged) : null;
      const code = known && line > 0 ? (readStaged(staged).split('\n')[line - 1] ?? '').trim() : '';
      findings.push({ check: result.ruleId, file, line, code, message: result.message?.text ?? '' });
    }
  }
  return findings;
}

/** Checks the allowlist's shape: every entry names a check and gives a reason. */
export function checkAllowlist(allowlist) {
  const problems = [];
  if (!allowlist || !Array.isArray(allowlist.allowed)) return ['the allowlist must be an object with an "allowed" array'];
  allowlist.allowed.forEach((entry, index) => {
    const where = `allowed[${index}]`;
    if (typeof entry?.check !== 'string' || !/^[A-Z0-9_]+$/.test(entry.check)) problems.push(`${where}: "check" must be an electronegativity check name`);
    if (entry?.file !== null && typeof entry?.file !== 'string') problems.push(`${where}: "file" must be a repository path or null (a finding with no file)`);
    if (entry?.code !== undefined && (typeof entry.code !== 'string' || entry.code.length === 0)) problems.push(`${where}: "code" must be a non-empty string when present`);
    if (typeof entry?.reason !== 'string' || entry.reason.trim().length < 20) problems.push(`${where}: "reason" must explain the finding (20 characters or more)`);
  });
  return problems;
}

/** Splits findings into explained and unexplained, and finds allowlist entries that match nothing. */
export function compareWithAllowlist(findings, allowlist) {
  const used = new Set();
  const explained = [];
  const unexplained = [];
  for (const finding of findings) {
    const index = allowlist.allowed.findIndex(
      (entry) => entry.check === finding.check && entry.file === finding.file && (entry.code === undefined || finding.code.includes(entry.code)),
    );
    if (index === -1) unexplained.push(finding);
    else {
      used.add(index);
      explained.push({ finding, reason: allowlist.allowed[index].reason });
    }
  }
  const stale = allowlist.allowed.filter((_, index) => !used.has(index));
  return { explained, unexplained, stale };
}

function electronVersion() {
  return JSON.parse(readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}

function runElectronegativity(input, output) {
  const bin = path.join(root, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js');
  if (!existsSync(bin)) throw new Error('@doyensec/electronegativity is not installed: run `npm install`');
  // -e: judge defaults as the Electron we ship, not the tool's guess. -x: the one check that
  // needs the network (Electron's release list from GitHub) is left out so the audit gives
  // the same answer everywhere; keeping Electron current is the dependency updates' job. The
  // tool still tries to fetch translations; offline it says so and carries on (a few seconds).
  const args = [bin, '-i', input, '-o', output, '-r', '-e', electronVersion(), '-v', 'false', '-x', 'AvailableSecurityFixesGlobalCheck'];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: root, env: { ...process.env, LANG: 'en-US' }, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`electronegativity failed: ${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/**
 * Stages `sourceDir`, runs electronegativity on it and compares its findings with
 * `allowlist`. `repoRoot` makes the reported file paths relative to the repository.
 */
export async function auditElectron({ sourceDir = ELECTRON_DIR, allowlist, repoRoot = root, keep = false }) {
  const shape = checkAllowlist(allowlist);
  if (shape.length > 0) return { ok: false, shape, parseErrors: [], findings: [], explained: [], unexplained: [], stale: [], files: 0 };
  const work = mkdtempSync(path.join(os.tmpdir(), 'cutright-audit-'));
  try {
    const stage = path.join(work, 'electron');
    const origin = stageSources(sourceDir, stage, repoRoot);
    const report = path.join(work, 'report.sarif');
    const { stdout, stderr } = await runElectronegativity(stage, report);
    const parseErrors = `${stdout}\n${stderr}`.split('\n').filter((line) => /error parsing/i.test(line));
    if (!existsSync(report)) throw new Error('electronegativity wrote no report');
    const sarif = JSON.parse(readFileSync(report, 'utf8'));
    const findings = findingsFromSarif(sarif, origin, (staged) => readFileSync(path.join(stage, staged), 'utf8'));
    const { explained, unexplained, stale } = compareWithAllowlist(findings, allowlist);
    const ok = parseErrors.length === 0 && unexplained.length === 0 && stale.length === 0;
    return { ok, shape, parseErrors, findings, explained, unexplained, stale, files: origin.size, work: keep ? work : undefined };
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

const describe = (f) => `${f.check} ${f.file ?? '(whole app)'}${f.line ? `:${f.line}` : ''}${f.code ? `  ${f.code}` : ''}`;

async function main() {
  const keep = process.argv.includes('--keep');
  const allowlist = JSON.parse(readFileSync(ALLOWLIST, 'utf8'));
  const result = await auditElectron({ allowlist, keep });
  const out = (text) => process.stdout.write(`${text}\n`);
  if (result.shape.length > 0) {
    out(`audit-electron: ${path.relative(root, ALLOWLIST)} is malformed:\n  ${result.shape.join('\n  ')}`);
    return 1;
  }
  out(`audit-electron: electronegativity (Electron ${electronVersion()}) scanned ${result.files} files: ${result.findings.length} finding(s)`);
  for (const line of result.parseErrors) out(`  COULD NOT READ  ${line.trim()}`);
  for (const { finding, reason } of result.explained) out(`  explained  ${describe(finding)}\n             ${reason}`);
  for (const finding of result.unexplained) out(`  UNEXPLAINED  ${describe(finding)}\n               ${finding.message}`);
  for (const entry of result.stale) out(`  STALE allowlist entry (matches no finding): ${entry.check} ${entry.file ?? '(whole app)'} ${entry.code ?? ''}`);
  if (result.work) out(`audit-electron: staging kept in ${result.work}`);
  if (!result.ok) {
    out(
      `audit-electron: FAILED: ${result.unexplained.length} unexplained finding(s), ${result.stale.length} stale allowlist entr${result.stale.length === 1 ? 'y' : 'ies'}, ` +
        `${result.parseErrors.length} unreadable file(s). Fix the code, or explain the finding in ${path.relative(root, ALLOWLIST)}.`,
    );
    return 1;
  }
  out('audit-electron: ok, every finding is explained');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`audit-electron: ${error.message}\n`);
      process.exit(1);
    },
  );
}
