// `cutright bundle list | verify | export` on real bundles written by the real store.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBundleStore } from '../bundle/index.js';
import { runBundle } from './bundle-command.test-support.js';

// The smallest JPEG header the store accepts: the picture itself need not be a real photo.
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);


async function sealedBundle(agentName = 'agent'): Promise<{ dataDir: string; dir: string; bundleId: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-cmd-'));
  const store = await openBundleStore({ dataDir });
  const bundle = await store.create({ sessionId: 's-1', appId: 'app.x', appName: 'App <X>', agentName, requestedAt: 1, answeredAt: 2, answeredBy: 'test' });
  await bundle.recordReceipt({ receiptId: 'r-1', op: 'type', ref: 'e-1', role: 'textbox', label: 'Name', text: 'Ada' });
  await bundle.recordPicture('r-1', { mime: 'image/jpeg', data: JPEG });
  await bundle.seal('complete', 'demo.end');
  return { dataDir, dir: path.join(store.bundlesDir, bundle.bundleId), bundleId: bundle.bundleId };
}

describe('cutright bundle', () => {
  it('lists bundles as a table and as JSON', async () => {
    const { dataDir, bundleId } = await sealedBundle();
    const table = await runBundle(['list', '--data-dir', dataDir]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe(`1 bundle in data folder ${dataDir}`);
    expect(table.stdout.split('\n')[1]).toBe('id\tapp\tagent\tstate\tstart\tduration\tsteps');
    expect(table.stdout).toContain(`${bundleId}\tapp.x\tagent\tcomplete\t`);
    const json = await runBundle(['list', '--json'], { CUTRIGHT_DATA_DIR: dataDir });
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ bundleId, state: 'complete', steps: 1 })]);
    expect(json.stderr).toBe(`cutright bundle list: 1 bundle in data folder ${dataDir}\n`);
  });

  it('says which data folder it read, and creates nothing in one no host has used', async () => {
    const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'cutright-cmd-')), 'never-used');
    const result = await runBundle(['list', `--data-dir=${dataDir}`]);
    expect(result).toMatchObject({ code: 0, stdout: `0 bundles in data folder ${dataDir} (it has no bundles folder: no host has recorded there)\n` });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('prints an agent name that carries terminal controls as visible escapes, in the table and in JSON', async () => {
    // Clear screen and a fake verdict, a window title, a clipboard write (OSC 52), an 8-bit CSI, and a right-to-left override.
    const hostile = 'x\x1b[2J\x1b[HALL BUNDLES VERIFIED OK\x1b]0;pwned\x07\x1b]52;c;ZWNobyBoaQ==\x07\u009b31m\u202eevil\ttab\nline';
    const { dataDir } = await sealedBundle(hostile);
    const table = await runBundle(['list', '--data-dir', dataDir]);
    const json = await runBundle(['list', '--json', '--data-dir', dataDir]);
    for (const output of [table.stdout, json.stdout]) {
      // eslint-disable-next-line no-control-regex -- the test looks for raw control characters
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    const row = table.stdout.split('\n')[2]!.split('\t');
    expect(row).toHaveLength(7);
    expect(row[2]).toBe('x\\x1b[2J\\x1b[HALL BUNDLES VERIFIED OK\\x1b]0;pwned\\x07\\x1b]52;c;ZWNobyBoaQ==\\x07\\x9b31m\\u202eevil\\ttab\\nline');
    // The JSON is still the same value.
    expect(JSON.parse(json.stdout)[0].agentName).toBe(hostile);
  });

  it('verify exits 0 on an intact bundle and 1 naming the file that changed', async () => {
    const { dir } = await sealedBundle();
    const ok = await runBundle(['verify', dir]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok: .* is intact \(signed by sha256:[0-9a-f]+, this installation's key\)/);
    const events = path.join(dir, 'events.ndjson');
    await writeFile(events, (await readFile(events, 'utf8')).replace('Ada', 'Eve'));
    const bad = await runBundle(['verify', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAILED: events\.ndjson: /);
  });

  it('exports one self-contained HTML page', async () => {
    const { dir } = await sealedBundle();
    const out = path.join(path.dirname(dir), 'export.html');
    const result = await runBundle(['export', dir, '--html', out]);
    expect(result.code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('App &lt;X&gt;');
    expect(html).toContain('data:image/jpeg;base64,');
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('verify takes a bundle id, looked up in the data folder, and says when there is no such bundle or folder', async () => {
    const { dataDir, bundleId } = await sealedBundle();
    const byId = await runBundle(['verify', bundleId, '--data-dir', dataDir]);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toContain(`ok: ${path.join(dataDir, 'bundles', bundleId)} is intact`);
    const unknownId = 'b-20990101T000000000Z-0000000000000000';
    const missingId = await runBundle(['verify', unknownId], { CUTRIGHT_DATA_DIR: dataDir });
    expect(missingId).toMatchObject({ code: 1, stderr: `cutright bundle verify: no bundle ${unknownId} in ${path.join(dataDir, 'bundles')} (name another data folder with --data-dir, or give the bundle's folder)\n` });
    const missingDir = await runBundle(['verify', path.join(dataDir, 'nope')]);
    expect(missingDir.code).toBe(1);
    expect(missingDir.stderr).toMatch(/no such folder: .*nope/);
    expect(missingDir.stdout + missingDir.stderr).not.toMatch(/not sealed/);
  });

  it('verify fails a bundle signed by a key it does not know unless --trust-key names that key', async () => {
    const { dir, bundleId } = await sealedBundle();
    const { cp } = await import('node:fs/promises');
    const elsewhere = path.join(await mkdtemp(path.join(os.tmpdir(), 'cutright-copy-')), bundleId);
    await cp(dir, elsewhere, { recursive: true });
    const unknown = await runBundle(['verify', elsewhere]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toMatch(/^FAILED: manifest\.sig: signed by key (sha256:[0-9a-f]{64}), which this installation does not know/);
    const fingerprint = /(sha256:[0-9a-f]{64})/.exec(unknown.stdout)![1]!;
    const trusted = await runBundle(['verify', elsewhere, '--trust-key', fingerprint]);
    expect(trusted).toMatchObject({ code: 0, stdout: expect.stringMatching(/is intact \(signed by sha256:[0-9a-f]+, a key named by --trust-key\)/) });
    const pub = path.join(path.dirname(dir), '..', 'keys', 'bundle-signing.pub');
    expect((await runBundle(['verify', elsewhere, `--trust-key=${pub}`])).code).toBe(0);
    expect((await runBundle(['verify', elsewhere, '--trust-key', 'sha256:abc'])).code).toBe(2);
  });

  it('export on a missing folder or an unknown id is a clear error, and takes a bundle id', async () => {
    const { dataDir, bundleId } = await sealedBundle();
    const out = path.join(dataDir, 'page.html');
    const missing = await runBundle(['export', path.join(dataDir, 'gone'), '--html', out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^cutright bundle export: no such folder: .*gone/);
    expect(existsSync(out)).toBe(false);
    const notBundle = await runBundle(['export', dataDir, '--html', out]);
    expect(notBundle.stderr).toMatch(/is not a bundle folder: it has no events\.ndjson/);
    const byId = await runBundle(['export', bundleId, '--data-dir', dataDir, '--html', out]);
    expect(byId).toMatchObject({ code: 0, stdout: `wrote ${out}\n` });
  });

  it('--help works for the group and for every command', async () => {
    for (const argv of [['--help'], ['help'], ['list', '--help'], ['verify', '--help'], ['export', '-h'], ['help', 'verify']]) {
      const result = await runBundle(argv);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout, argv.join(' ')).toMatch(/^usage: cutright bundle /);
    }
    expect((await runBundle(['list', '--help'])).stdout).toContain('--data-dir');
    expect((await runBundle(['verify', '--help'])).stdout).toContain('--trust-key');
    expect((await runBundle(['export', '--help'])).stdout).toContain('--html');
  });

  it('refuses bad usage with exit 2', async () => {
    expect((await runBundle(['verify'])).code).toBe(2);
    expect((await runBundle(['export', '/tmp/x'])).code).toBe(2);
    expect((await runBundle(['frobnicate'])).code).toBe(2);
    expect((await runBundle(['list', '--bogus'])).code).toBe(2);
  });
});
