// Crash test: a child process records sessions through the real store and is killed with
// SIGKILL at random moments (mid-append, mid-picture, mid-seal, mid-create). After each kill a
// fresh store recovers, and every bundle must verify and hold everything the child was told was
// durable. (SIGKILL cannot tear a write the kernel already took; torn lines, which need a power
// cut, are covered in recovery.test.ts and by the full-disk test in disk.test.ts.)
import { fork } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBundleStore, verifyBundle } from './index.js';
import { tempDataDir } from './bundle.test-support.js';

const here = fileURLToPath(new URL('.', import.meta.url));
let workDir: string;
let cleanup: () => Promise<void>;
let childScript: string;

// The child runs plain Node, so it gets the store's sources transpiled to JavaScript here
// (with the project's own TypeScript): the same code, no test double.
beforeAll(async () => {
  ({ dataDir: workDir, cleanup } = await tempDataDir());
  await writeFile(join(workDir, 'package.json'), '{"type":"module"}');
  // The store's folder, and the shared helpers it imports (../common/), side by side as in src/.
  for (const [from, to] of [[here, 'bundle-js'], [join(here, '..', 'common'), 'common']] as const) {
    const out = join(workDir, to);
    await mkdir(out);
    for (const name of await readdir(from)) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts') || name.endsWith('.test-support.ts')) continue;
      const { outputText } = ts.transpileModule(await readFile(join(from, name), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      });
      await writeFile(join(out, name.replace(/\.ts$/, '.js')), outputText);
    }
  }
  childScript = join(workDir, 'child.mjs');
  await writeFile(childScript, `
import { openBundleStore } from './bundle-js/index.js';
const say = (o) => process.stdout.write(JSON.stringify(o) + '\\n'); // pipes are synchronous on Linux
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(20000, 7), Buffer.from([0xff, 0xd9])]);
const store = await openBundleStore({ dataDir: process.argv[2] });
for (let s = 0; ; s++) {
  const bundle = await store.create({ sessionId: 's-' + s, appId: 'app.x', appName: 'X', agentName: 'crash test', requestedAt: Date.now(), answeredAt: Date.now(), answeredBy: 'test' });
  say({ bundle: bundle.bundleId });
  const steps = s % 4;
  for (let i = 0; i < steps; i++) {
    const receiptId = 'r-' + s + '-' + i;
    await bundle.recordReceipt({ receiptId, op: 'type', ref: 'e' + i, role: 'textbox', label: 'Name', text: 'step ' + i });
    say({ receipt: receiptId, bundle: bundle.bundleId });
    await bundle.recordPicture(receiptId, { mime: 'image/jpeg', data: jpeg });
    await bundle.recordCall({ method: 'demo.act', ok: true });
  }
  await bundle.seal('complete', 'demo.end');
  say({ sealed: bundle.bundleId });
}
`);
});
afterAll(() => cleanup());

/**
 * Runs the child and kills it `afterMs` after its `afterLines`-th acknowledgement (so each kill
 * lands while it is busy, at a different point), returning what it acknowledged.
 */
function runAndKill(dataDir: string, afterLines: number, afterMs: number): Promise<Record<string, string>[]> {
  return new Promise((resolve, reject) => {
    const child = fork(childScript, [dataDir], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let out = '';
    let err = '';
    let armed = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!armed && out.split('\n').length > afterLines) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    // Never leave a child behind, even if it stalls before its acknowledgements.
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      if (signal !== 'SIGKILL') return reject(new Error(`child exited ${code} before the kill: ${err}`));
      resolve(out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>));
    });
  });
}

describe('crash: SIGKILL at random moments, then recovery', () => {
  it('every bundle verifies after recovery and holds every acknowledged record', async () => {
    const dataDir = join(workDir, 'data');
    const acked: Record<string, string>[] = [];
    // [acknowledgements to wait for, then ms]: the first kill lands right after a receipt, so at
    // least one bundle is surely mid-session; the others land wherever the child happens to be.
    const kills: [number, number][] = [[3, 0], [4, 7], [6, 15], [9, 3], [12, 25], [5, Math.floor(Math.random() * 40)]];
    for (const [afterLines, afterMs] of kills) {
      acked.push(...(await runAndKill(dataDir, afterLines, afterMs)));
      const store = await openBundleStore({ dataDir });
      await store.recoverUnsealed();
      for (const summary of await store.list()) {
        const dir = join(store.bundlesDir, summary.bundleId);
        expect(await verifyBundle(dir), summary.bundleId).toMatchObject({ ok: true });
        expect(summary.state).not.toBe('open');
      }
    }
    const messages: string[] = [];
    const store = await openBundleStore({ dataDir, log: (m) => messages.push(m) });
    const bundles = new Map((await store.list()).map((b) => [b.bundleId, b]));
    for (const ack of acked) {
      if (ack.bundle && !ack.receipt) expect(bundles.has(ack.bundle), `${ack.bundle} ${messages.join('; ')}`).toBe(true);
      if (ack.receipt) {
        const detail = await store.get(ack.bundle!);
        expect(detail.steps.map((s) => s.receiptId), ack.receipt).toContain(ack.receipt);
      }
      if (ack.sealed) expect(bundles.get(ack.sealed)).toMatchObject({ state: 'complete', reason: 'demo.end' });
    }
    expect(acked.filter((a) => a.receipt).length).toBeGreaterThan(0);
    expect([...bundles.values()].map((b) => b.reason)).toContain('host crash');
  }, 60_000);
});
