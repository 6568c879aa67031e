import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditElectron, checkAllowlist, compareWithAllowlist, findingsFromSarif, isAuditedSource } from './audit-electron.mjs';

const finding = (check, file, code = '') => ({ check, file, line: 3, code, message: '' });
const reason = 'explained at length for this test';

describe('the allowlist', () => {
  it('audits shipped sources only', () => {
    expect(['main.ts', 'main.cts', 'ipc.ts'].every(isAuditedSource)).toBe(true);
    expect(['ipc.test.ts', 'stand-ins.test-support.ts', 'audit-allowlist.json', 'x.d.ts'].some(isAuditedSource)).toBe(false);
  });

  it('needs a check name and a real reason for every entry', () => {
    expect(checkAllowlist({ allowed: [{ check: 'SANDBOX_JS_CHECK', file: 'electron/main.ts', reason }] })).toEqual([]);
    expect(checkAllowlist({ allowed: [{ check: 'SANDBOX_JS_CHECK', file: 'electron/main.ts', reason: 'ok' }] })[0]).toMatch(/reason/);
    expect(checkAllowlist({ allowed: [{ check: 'sandbox', file: 1, reason }] })).toHaveLength(2);
    expect(checkAllowlist({})[0]).toMatch(/"allowed" array/);
  });

  it('explains findings by check, file and code, and reports the rest and unused entries', () => {
    const allowlist = {
      allowed: [
        { check: 'CSP_GLOBAL_CHECK', file: null, reason },
        { check: 'SANDBOX_JS_CHECK', file: 'electron/main.ts', code: 'new BrowserWindow(windowOptions)', reason },
        { check: 'AUXCLICK_JS_CHECK', file: 'electron/gone.ts', reason },
      ],
    };
    const result = compareWithAllowlist(
      [
        finding('CSP_GLOBAL_CHECK', null),
        finding('SANDBOX_JS_CHECK', 'electron/main.ts', 'createWindow: (o) => new BrowserWindow(windowOptions),'),
        finding('SANDBOX_JS_CHECK', 'electron/main.ts', 'new BrowserWindow({ sandbox: false })'),
        finding('SANDBOX_JS_CHECK', 'electron/other.ts', 'new BrowserWindow(windowOptions)'),
      ],
      allowlist,
    );
    expect(result.explained).toHaveLength(2);
    expect(result.unexplained.map((f) => f.file)).toEqual(['electron/main.ts', 'electron/other.ts']);
    expect(result.stale).toEqual([allowlist.allowed[2]]);
  });

  it('reads SARIF locations back to repository files and the flagged line', () => {
    const sarif = {
      runs: [
        {
          results: [
            { ruleId: 'CSP_GLOBAL_CHECK', locations: [{ physicalLocation: { artifactLocation: { uri: 'file:///' }, region: { startLine: 1 } } }] },
            { ruleId: 'SANDBOX_JS_CHECK', locations: [{ physicalLocation: { artifactLocation: { uri: 'preload/main.ts' }, region: { startLine: 2 } } }] },
          ],
        },
      ],
    };
    const findings = findingsFromSarif(sarif, new Map([['preload/main.ts', 'electron/preload/main.cts']]), () => 'line one\n  line two  \n');
    expect(findings).toEqual([
      { check: 'CSP_GLOBAL_CHECK', file: null, line: 1, code: '', message: '' },
      { check: 'SANDBOX_JS_CHECK', file: 'electron/preload/main.cts', line: 2, code: 'line two', message: '' },
    ]);
  });
});

describe('electronegativity on a window that is not locked down', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cutright-audit-probe-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails the audit, naming the file and the line', async () => {
    mkdirSync(path.join(dir, 'electron'));
    writeFileSync(
      path.join(dir, 'electron', 'bad.ts'),
      "import { BrowserWindow } from 'electron';\nconst w = new BrowserWindow({ webPreferences: { contextIsolation: false, sandbox: false } });\nvoid w.loadURL('https://example.com/');\n",
    );
    const result = await auditElectron({ sourceDir: path.join(dir, 'electron'), allowlist: { allowed: [] }, repoRoot: dir });
    expect(result.ok).toBe(false);
    expect(result.files).toBe(1);
    const isolation = result.unexplained.find((f) => f.check === 'CONTEXT_ISOLATION_JS_CHECK');
    expect(isolation).toMatchObject({ file: 'electron/bad.ts', line: 2 });
    expect(isolation.code).toContain('contextIsolation: false');
    expect(result.unexplained.map((f) => f.check)).toContain('SANDBOX_JS_CHECK');
  }, 120_000);
});
