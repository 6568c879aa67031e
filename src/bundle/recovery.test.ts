import { appendFile, mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBundleStore, verifyBundle, type BundleStore } from './index.js';
import { CONSENT, freshStore, openStore, readEvents, recordSession } from './bundle.test-support.js';

let dataDir: string;
let cleanup: () => Promise<void>;
let store: BundleStore;

beforeEach(async () => {
  ({ dataDir, cleanup, store } = await freshStore());
});
afterEach(() => cleanup());


/** A bundle as a crashed host leaves it: records on disk, no seal, and a fresh store (the next start). */
async function crashedBundle(): Promise<{ id: string; dir: string; next: BundleStore }> {
  const bundle = await recordSession(store);
  return { id: bundle.bundleId, dir: join(store.bundlesDir, bundle.bundleId), next: await openStore(dataDir) };
}

describe('recoverUnsealed', () => {
  it('seals a bundle left open as killed, host crash', async () => {
    const { id, dir, next } = await crashedBundle();
    expect(await next.recoverUnsealed()).toEqual([id]);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
    const end = (await readEvents(dir)).at(-1);
    expect(end).toMatchObject({ type: 'end', state: 'killed', reason: 'host crash' });
    expect(end).not.toHaveProperty('truncated');
    expect((await next.get(id)).summary).toMatchObject({ state: 'killed', reason: 'host crash', steps: 2 });
    expect(await next.recoverUnsealed()).toEqual([]); // sealed now: left alone
  });

  it('cuts a torn last line, notes it in the end event, and seals', async () => {
    const { id, dir, next } = await crashedBundle();
    const torn = '{"seq":8,"prev":"abc","type":"receipt","at":1,"recei';
    await appendFile(join(dir, 'events.ndjson'), torn);
    // Open bundles read fine meanwhile: the torn tail is not an event.
    expect((await next.get(id)).summary.state).toBe('open');
    expect(await next.recoverUnsealed()).toEqual([id]);
    const all = await readEvents(dir);
    expect(all).toHaveLength(9);
    expect(all.at(-1)).toMatchObject({
      seq: 8, type: 'end', state: 'killed', reason: 'host crash',
      truncated: { bytes: Buffer.byteLength(torn), note: expect.stringMatching(/partly written last line/) },
    });
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
  });

  it('a leftover manifest.json.tmp is not a seal', async () => {
    const { id, dir, next } = await crashedBundle();
    await writeFile(join(dir, 'manifest.json.tmp'), '{"half":');
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'manifest.json' });
    expect(await next.recoverUnsealed()).toEqual([id]);
    expect(await readdir(dir)).toEqual(['events.ndjson', 'manifest.json', 'manifest.sig', 'pictures', 'recording']);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
  });

  it('keeps an end that was recorded before the crash, and finishes a half-written seal', async () => {
    const bundle = await recordSession(store);
    const dir = join(store.bundlesDir, bundle.bundleId);
    await bundle.seal('complete', 'demo.end');
    // The crash hit after manifest.json was renamed in, before manifest.sig was.
    await rename(join(dir, 'manifest.sig'), join(dir, 'manifest.sig.tmp'));
    const next = await openStore(dataDir);
    expect(await next.recoverUnsealed()).toEqual([bundle.bundleId]);
    expect((await readEvents(dir)).filter((e) => e.type === 'end')).toEqual([expect.objectContaining({ state: 'complete', reason: 'demo.end' })]);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
  });

  it('does not touch a sealed bundle that was changed afterwards, nor a live one', async () => {
    const sealed = await recordSession(store);
    await sealed.seal('complete', 'demo.end');
    const sealedDir = join(store.bundlesDir, sealed.bundleId);
    await writeFile(join(sealedDir, 'extra'), 'x');
    const live = await store.create(CONSENT);
    expect(await store.recoverUnsealed()).toEqual([]);
    expect(await verifyBundle(sealedDir)).toMatchObject({ ok: false, file: 'extra' });
    expect(live.sealed).toBe(false);
    await live.recordCall({ method: 'demo.snapshot', ok: true });
  });

  it('leaves a bundle whose chain is broken mid-file unsealed, and says why', async () => {
    const { id, dir } = await crashedBundle();
    const path = join(dir, 'events.ndjson');
    const rows = (await readFile(path, 'utf8')).trimEnd().split('\n');
    rows.splice(2, 1);
    await writeFile(path, `${rows.join('\n')}\n`);
    const messages: string[] = [];
    const next = await (await import('./index.js')).openBundleStore({ dataDir, log: (m) => messages.push(m) });
    expect(await next.recoverUnsealed()).toEqual([]);
    expect(messages.join('\n')).toMatch(new RegExp(`bundle ${id} could not be sealed.*line 3: seq is 3, expected 2`));
    await expect(stat(join(dir, 'manifest.sig'))).rejects.toThrow(/ENOENT/);
  });

  it('passes over an interrupted creation (no session began) without sealing or deleting it', async () => {
    const half = join(store.bundlesDir, '.creating-b-20250101T000000000Z-0123456789abcdef');
    await mkdir(half);
    const next = await openStore(dataDir);
    expect(await next.recoverUnsealed()).toEqual([]);
    expect(await next.list()).toEqual([]);
    expect((await stat(half)).isDirectory()).toBe(true);
  });

  it('notes a picture whose event was never written', async () => {
    const { dir, next } = await crashedBundle();
    await writeFile(join(dir, 'pictures/3-r-type2.jpg'), Buffer.from([0xff, 0xd8]));
    await next.recoverUnsealed();
    expect((await readEvents(dir)).at(-1)).toMatchObject({ unreferencedFiles: ['pictures/3-r-type2.jpg'] });
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
    await unlink(join(dir, 'pictures/3-r-type2.jpg'));
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'pictures/3-r-type2.jpg' });
  });

  it('never follows a link out of the data folder: a linked bundle folder or events file is left as it is', async () => {
    const { mkdtemp, readFile: read, rm, symlink } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const outside = await mkdtemp(join(tmpdir(), 'cutright-outside-'));
    try {
      // A bundle folder that is a link to an unsealed bundle outside the data folder.
      const { id, dir } = await crashedBundle();
      const target = join(outside, id);
      await rename(dir, target);
      await symlink(target, dir);
      // And a real bundle folder whose events file links outside (with a torn line recovery would cut).
      const second = await crashedBundle();
      const outsideEvents = join(outside, 'events.ndjson');
      await appendFile(join(second.dir, 'events.ndjson'), '{"torn');
      await rename(join(second.dir, 'events.ndjson'), outsideEvents);
      await symlink(outsideEvents, join(second.dir, 'events.ndjson'));
      const before = await read(outsideEvents);

      const logged: string[] = [];
      const next = await openBundleStore({ dataDir, log: (m) => logged.push(m) });
      expect(await next.recoverUnsealed()).toEqual([]);
      expect(await readdir(target)).toEqual(['events.ndjson', 'pictures', 'recording']);
      expect(await read(outsideEvents)).toEqual(before);
      expect(await readdir(second.dir)).toEqual(['events.ndjson', 'pictures', 'recording']);
      expect(logged.join('\n')).toMatch(new RegExp(`bundle ${id} is not recovered: .* is a link`));
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
