// `cutright bundle list | verify | export` on real bundles written by the real store.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBundleStore } from '../bundle/index.js';
import { runBundleCommand } from './bundle-command.js';

// The smallest JPEG header the store accepts: the picture itself need not be a real photo.
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runBundleCommand(argv, {
    stdout: { write: (t: string) => ((stdout += t), true) } as NodeJS.WritableStream,
    stderr: { write: (t: string) => ((stderr += t), true) } as NodeJS.WritableStream,
    env,
  });
  return { code, stdout, stderr };
}

async function sealedBundle(): Promise<{ dataDir: string; dir: string; bundleId: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-cmd-'));
  const store = await openBundleStore({ dataDir });
  const bundle = await store.create({ sessionId: 's-1', appId: 'app.x', appName: 'App <X>', agentName: 'agent', requestedAt: 1, answeredAt: 2, answeredBy: 'test' });
  await bundle.recordReceipt({ receiptId: 'r-1', op: 'type', ref: 'e-1', role: 'textbox', label: 'Name', text: 'Ada' });
  await bundle.recordPicture('r-1', { mime: 'image/jpeg', data: JPEG });
  await bundle.seal('complete', 'demo.end');
  return { dataDir, dir: path.join(store.bundlesDir, bundle.bundleId), bundleId: bundle.bundleId };
}

describe('cutright bundle', () => {
  it('lists bundles as a table and as JSON', async () => {
    const { dataDir, bundleId } = await sealedBundle();
    const table = await run(['list', '--data-dir', dataDir]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe('id\tapp\tagent\tstate\tstart\tduration\tsteps');
    expect(table.stdout).toContain(`${bundleId}\tapp.x\tagent\tcomplete\t`);
    const json = await run(['list', '--json'], { CUTRIGHT_DATA_DIR: dataDir });
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ bundleId, state: 'complete', steps: 1 })]);
  });

  it('verify exits 0 on an intact bundle and 1 naming the file that changed', async () => {
    const { dir } = await sealedBundle();
    const ok = await run(['verify', dir]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok: .* is intact \(signed by this installation's key sha256:[0-9a-f]+\)/);
    const events = path.join(dir, 'events.ndjson');
    await writeFile(events, (await readFile(events, 'utf8')).replace('Ada', 'Eve'));
    const bad = await run(['verify', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAILED: events\.ndjson: /);
  });

  it('exports one self-contained HTML page', async () => {
    const { dir } = await sealedBundle();
    const out = path.join(path.dirname(dir), 'export.html');
    const result = await run(['export', dir, '--html', out]);
    expect(result.code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('App &lt;X&gt;');
    expect(html).toContain('data:image/jpeg;base64,');
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('refuses bad usage with exit 2', async () => {
    expect((await run(['verify'])).code).toBe(2);
    expect((await run(['export', '/tmp/x'])).code).toBe(2);
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['list', '--bogus'])).code).toBe(2);
  });
});
