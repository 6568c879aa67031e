// `cutright bundle export --video | --gif`: the flags and their errors, on real bundles (a real
// recorded session for the exports themselves), and the progress it prints.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBundleStore } from '../bundle/index.js';
import { recordDemo, type RecordedDemo } from '../export/export.test-support.js';
import { runBundle } from './bundle-command.test-support.js';
import { progressSink } from './progress.js';


let demo: RecordedDemo;
let out: string;

beforeAll(async () => {
  demo = await recordDemo();
  out = await mkdtemp(path.join(os.tmpdir(), 'cutright-export-cmd-'));
}, 120_000);

afterAll(async () => {
  await demo?.t.stop();
});

describe('cutright bundle export --video / --gif', () => {
  it('writes the video and the GIF, with a progress line per tenth on a stderr that is no terminal', async () => {
    const video = path.join(out, 'demo.webm');
    const gif = path.join(out, 'demo.gif');
    const result = await runBundle(['export', demo.bundleId, '--video', video, '--gif', gif, '--data-dir', demo.t.dataDir]);
    expect(result.stderr).not.toContain('\r');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^wrote ${video} \\(WebM, VP9, \\d+\\.\\d s, \\d+ pictures, \\d+ KB\\)\\nwrote ${gif} \\(GIF, 12\\.0 s, 4 pictures, \\d+ KB\\)\\n$`));
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('cutright bundle export: video demo.webm: 0%');
    expect(lines).toContain('cutright bundle export: video demo.webm: 100%');
    expect(lines.at(-1)).toBe('cutright bundle export: GIF demo.gif: 100%');
    expect(lines.length).toBeLessThanOrEqual(22);
    expect((await stat(video)).size).toBeGreaterThan(1000);
    // Nothing is left beside them (the partial files were renamed), nothing added to the bundle.
    expect((await readdir(out)).sort()).toEqual(['demo.gif', 'demo.webm']);
    expect((await runBundle(['verify', demo.dir])).code).toBe(0);
  }, 120_000);

  it('writes .mp4 as H.264', async () => {
    const video = path.join(out, 'demo.mp4');
    const result = await runBundle(['export', demo.dir, `--video=${video}`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\(MP4, H\.264, /);
  }, 120_000);

  it('refuses what it cannot do, naming what and what to do, and writes nothing', async () => {
    const none = await runBundle(['export', demo.dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('needs at least one of --html FILE, --video FILE.webm|FILE.mp4, --gif FILE.gif');
    const avi = await runBundle(['export', demo.dir, '--video', path.join(out, 'x.avi')]);
    expect(avi.code).toBe(2);
    expect(avi.stderr).toContain('the file must end in .webm or .mp4');
    const png = await runBundle(['export', demo.dir, '--gif', path.join(out, 'x.png')]);
    expect(png.code).toBe(2);
    expect(png.stderr).toContain('--gif');
    const intoBundle = await runBundle(['export', demo.dir, '--video', path.join(demo.dir, 'pictures', 'x.webm')]);
    expect(intoBundle.code).toBe(1);
    expect(intoBundle.stderr).toContain("it is inside the bundle's folder");
    const noFolder = await runBundle(['export', demo.dir, '--gif', path.join(out, 'missing', 'x.gif')]);
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toContain(`the folder ${path.join(out, 'missing')} does not exist`);
    const overFile = await runBundle(['export', demo.dir, '--gif', path.join(demo.dir, 'events.ndjson', 'x.gif')]);
    expect(overFile.code).toBe(1);
    expect((await runBundle(['verify', demo.dir])).code).toBe(0);
    expect(existsSync(path.join(out, 'x.avi')) || existsSync(path.join(out, 'x.png'))).toBe(false);
  }, 60_000);

  it('refuses a bundle that is not sealed, one that does not verify, and one with no recording', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-export-cmd-'));
    const store = await openBundleStore({ dataDir });
    const open = await store.create({ sessionId: 's-1', appId: 'app.x', appName: 'App', agentName: 'a', requestedAt: 1, answeredAt: 2, answeredBy: 'test' });
    const openDir = path.join(store.bundlesDir, open.bundleId);
    const unsealed = await runBundle(['export', openDir, '--video', path.join(out, 'open.webm')]);
    expect(unsealed.code).toBe(1);
    expect(unsealed.stderr).toContain('is not a sealed bundle yet');
    await open.recordReceipt({ receiptId: 'r-1', op: 'click', ref: 'e-1', role: 'button', label: 'Go' });
    await open.seal('complete', 'demo.end');
    const noRecording = await runBundle(['export', openDir, '--video', path.join(out, 'none.webm')]);
    expect(noRecording.code).toBe(1);
    expect(noRecording.stderr).toContain('the bundle has no recorded frames');
    expect(existsSync(path.join(out, 'open.webm')) || existsSync(path.join(out, 'none.webm'))).toBe(false);
  }, 60_000);

  it('exports a copied bundle only when its signing key is trusted (--trust-key, as for verify)', async () => {
    const copy = path.join(await mkdtemp(path.join(os.tmpdir(), 'cutright-export-copy-')), demo.bundleId);
    await cp(demo.dir, copy, { recursive: true });
    const untrusted = await runBundle(['export', copy, '--gif', path.join(out, 'copy.gif')]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('does not verify (manifest.sig: ');
    expect(existsSync(path.join(out, 'copy.gif'))).toBe(false);
    const fingerprint = (JSON.parse(await readFile(path.join(copy, 'manifest.json'), 'utf8')) as { signing: { fingerprint: string } }).signing.fingerprint;
    const trusted = await runBundle(['export', copy, '--gif', path.join(out, 'copy.gif'), '--trust-key', fingerprint]);
    expect(trusted.code, trusted.stderr).toBe(0);
  }, 60_000);
});

describe('the progress on stderr', () => {
  it('is a bar redrawn in place on a terminal, one line per tenth elsewhere', () => {
    let tty = '';
    let clock = 0;
    const bar = progressSink({ isTTY: true, write: (t: string) => ((tty += t), true) } as unknown as NodeJS.WritableStream, 'export', () => clock);
    bar.update(0);
    clock = 1500;
    bar.update(0.5);
    bar.update(0.501);
    bar.update(1);
    bar.end();
    expect(tty).toBe(`\rexport [${'-'.repeat(30)}]   0% 0.0s\rexport [${'#'.repeat(15)}${'-'.repeat(15)}]  50% 1.5s\rexport [${'#'.repeat(30)}] 100% 1.5s\n`);
    let log = '';
    const lines = progressSink({ write: (t: string) => ((log += t), true) } as unknown as NodeJS.WritableStream, 'export');
    for (let i = 0; i <= 100; i += 1) lines.update(i / 100);
    lines.end();
    expect(log.split('\n').filter(Boolean)).toEqual(Array.from({ length: 11 }, (_, i) => `export: ${i * 10}%`));
  });
});
