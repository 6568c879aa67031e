// What a player gets of a bundle's recording: only a sealed bundle's, and only frames its
// signed manifest lists, as regular files of its own folder.
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSENT, fakeJpeg, freshStore } from './bundle.test-support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function recorded(seal = true) {
  const fresh = await freshStore();
  cleanups.push(fresh.cleanup);
  const bundle = await fresh.store.create(CONSENT);
  await bundle.recording.recordFrame({ data: fakeJpeg(700), at: 1_700_000_003_000, width: 1280, height: 720 });
  await bundle.recordReceipt({ receiptId: 'r-1', op: 'click', ref: 'e1', role: 'button', label: 'Submit', at: 1_700_000_003_500 });
  await bundle.recording.recordGap(1_700_000_004_000, 'not capture-safe: private');
  await bundle.recording.recordFrame({ data: fakeJpeg(800), at: 1_700_000_005_000, width: 1280, height: 720 });
  if (seal) await bundle.seal('complete', 'demo.end');
  return { ...fresh, bundle, dir: join(fresh.store.bundlesDir, bundle.bundleId) };
}

describe('a bundle recording for the player', () => {
  it("a sealed bundle's detail carries its recording's lines; its frames are served from the manifest's list", async () => {
    const { store, bundle, dir } = await recorded();
    const detail = await store.get(bundle.bundleId);
    expect(detail.recording?.lines.map((l) => (l.type === 'frame' ? l.file : l.reason))).toEqual([
      'recording/1.jpg',
      'not capture-safe: private',
      'recording/2.jpg',
      'session ended',
    ]);
    expect(detail.recording?.lines[0]).toEqual({ type: 'frame', at: 1_700_000_003_000, file: 'recording/1.jpg', width: 1280, height: 720 });
    expect(await store.framePath(bundle.bundleId, 'recording/2.jpg')).toBe(join(dir, 'recording', '2.jpg'));
    for (const bad of ['recording/3.jpg', 'recording/index.ndjson', 'recording/../events.ndjson', '../x/recording/1.jpg', 'pictures/1-r-1.jpg', '']) {
      expect(await store.framePath(bundle.bundleId, bad)).toBeNull();
    }
    expect(await store.framePath('../bundles', 'recording/1.jpg')).toBeNull();
    expect(await store.framePath('b-20250101T000000000Z-0000000000000000', 'recording/1.jpg')).toBeNull();
  });

  it('an open bundle has no recording to play and serves no frame', async () => {
    const { store, bundle } = await recorded(false);
    expect((await store.get(bundle.bundleId)).recording).toBeNull();
    expect(await store.framePath(bundle.bundleId, 'recording/1.jpg')).toBeNull();
    await bundle.seal('killed', 'kill control');
    expect((await store.get(bundle.bundleId)).recording?.lines.at(-1)).toMatchObject({ type: 'gap', reason: 'session killed: kill control' });
    expect(await store.framePath(bundle.bundleId, 'recording/1.jpg')).not.toBeNull();
  });

  it('a frame changed in size, replaced by a link, or in a linked recording folder is not served; a changed index does not play', async () => {
    const { store, bundle, dir, dataDir } = await recorded();
    await writeFile(join(dir, 'recording', '1.jpg'), fakeJpeg(701));
    expect(await store.framePath(bundle.bundleId, 'recording/1.jpg')).toBeNull();
    await rm(join(dir, 'recording', '2.jpg'));
    await writeFile(join(dataDir, 'outside.jpg'), fakeJpeg(800));
    await symlink(join(dataDir, 'outside.jpg'), join(dir, 'recording', '2.jpg'));
    expect(await store.framePath(bundle.bundleId, 'recording/2.jpg')).toBeNull();

    const elsewhere = join(dataDir, 'elsewhere');
    await mkdir(elsewhere);
    await rename(join(dir, 'recording'), join(elsewhere, 'recording'));
    await symlink(join(elsewhere, 'recording'), join(dir, 'recording'));
    await rm(join(elsewhere, 'recording', '2.jpg'));
    await writeFile(join(elsewhere, 'recording', '2.jpg'), fakeJpeg(800));
    expect(await store.framePath(bundle.bundleId, 'recording/2.jpg')).toBeNull();

    await rm(join(dir, 'recording'));
    await rename(join(elsewhere, 'recording'), join(dir, 'recording'));
    await writeFile(join(dir, 'recording', 'index.ndjson'), '{"seq":0}\n');
    expect((await store.get(bundle.bundleId)).recording).toBeNull();
  });
});
