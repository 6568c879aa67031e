// Failed writes, made by real means that work even as root (where chmod stops nothing):
// a folder replaced by a file (ENOTDIR), the events file pointed at /dev/full (ENOSPC), and,
// where mounting is allowed, a genuinely full tmpfs.
import { execFileSync } from 'node:child_process';
import { mkdir, open, readFile, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundleWriteError, diskProblemOf, openBundleStore, verifyBundle, type BundleStore } from './index.js';
import { CONSENT, fakeJpeg, freshStore, openStore, recordSession } from './bundle.test-support.js';

let dataDir: string;
let cleanup: () => Promise<void>;
let store: BundleStore;

beforeEach(async () => {
  ({ dataDir, cleanup, store } = await freshStore());
});
afterEach(() => cleanup());

async function rejection(promise: Promise<unknown>): Promise<BundleWriteError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(BundleWriteError);
  return error as BundleWriteError;
}

describe('failed writes surface diskProblem', () => {
  it('disk full: an append that gets ENOSPC rejects, the chain stays whole, and the bundle seals once space is back', async () => {
    const bundle = await recordSession(store);
    const dir = join(store.bundlesDir, bundle.bundleId);
    const events = join(dir, 'events.ndjson');
    await rename(events, `${events}.real`);
    await symlink('/dev/full', events);
    const error = await rejection(bundle.recordReceipt({ receiptId: 'r-lost', op: 'click', ref: 'e9', role: 'button', label: 'Lost' }));
    expect(error.diskProblem).toBe('disk full');
    expect(error.code).toBe('ENOSPC');
    expect(diskProblemOf(error)).toBe('disk full');
    await unlink(events);
    await rename(`${events}.real`, events);
    await bundle.seal('killed', error.diskProblem);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
    const detail = await store.get(bundle.bundleId);
    expect(detail.summary).toMatchObject({ state: 'killed', reason: 'disk full', steps: 2 });
    expect(detail.steps.map((s) => s.receiptId)).not.toContain('r-lost');
  });

  it('data folder unwritable: the bundle folder replaced by a file', async () => {
    const bundle = await recordSession(store);
    const dir = join(store.bundlesDir, bundle.bundleId);
    await rename(dir, `${dir}.moved`);
    await writeFile(dir, 'not a folder');
    const call = await rejection(bundle.recordCall({ method: 'demo.act', ok: true }));
    expect(call.diskProblem).toBe('data folder unwritable');
    expect(call.code).toBe('ENOTDIR');
    const picture = await rejection(bundle.recordPicture('r-click1', { mime: 'image/jpeg', data: fakeJpeg() }));
    expect(picture.diskProblem).toBe('data folder unwritable');
    const seal = await rejection(bundle.seal('killed', 'data folder unwritable'));
    expect(seal.diskProblem).toBe('data folder unwritable');
    expect(bundle.sealed).toBe(false);
    // Put back, the next start recovers it; the first recorded end does not exist, so: host crash.
    await unlink(dir);
    await rename(`${dir}.moved`, dir);
    expect(await (await openStore(dataDir)).recoverUnsealed()).toEqual([bundle.bundleId]);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
  });

  it('data folder unwritable: creating a bundle when bundles/ is not a folder', async () => {
    await rm(store.bundlesDir, { recursive: true });
    await writeFile(store.bundlesDir, 'x');
    const error = await rejection(store.create(CONSENT));
    expect(error.diskProblem).toBe('data folder unwritable');
    await expect(openBundleStore({ dataDir })).rejects.toMatchObject({ diskProblem: 'data folder unwritable' });
  });

  it('data folder unwritable: no place for the signing key; nothing is marked sealed', async () => {
    const bundle = await recordSession(store);
    await writeFile(join(dataDir, 'keys'), 'in the way');
    const error = await rejection(bundle.seal('complete', 'demo.end'));
    expect(error.diskProblem).toBe('data folder unwritable');
    expect(bundle.sealed).toBe(false);
    await expect(stat(join(store.bundlesDir, bundle.bundleId, 'manifest.json'))).rejects.toThrow(/ENOENT/);
    // Once the way is clear, sealing again finishes with the end recorded the first time.
    await unlink(join(dataDir, 'keys'));
    await bundle.seal('killed', 'other');
    expect((await store.get(bundle.bundleId)).summary).toMatchObject({ state: 'complete', reason: 'demo.end' });
    expect(await verifyBundle(join(store.bundlesDir, bundle.bundleId))).toMatchObject({ ok: true });
  });
});

function tryMountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a genuinely full disk (tmpfs; skipped where mounting is not allowed)', () => {
  it('a short write leaves part of a line; the next append cuts it off and the chain holds', async (context) => {
    const mountPoint = join(dataDir, 'small-disk');
    await mkdir(mountPoint);
    if (!tryMountTmpfs(mountPoint, '256k')) context.skip();
    try {
      const small = await openStore(mountPoint);
      const bundle = await small.create(CONSENT);
      await bundle.recordReceipt({ receiptId: 'r-1', op: 'click', ref: 'e1', role: 'button', label: 'Submit' });
      const events = join(small.bundlesDir, bundle.bundleId, 'events.ndjson');
      const before = (await stat(events)).size;
      // Fill every free page, so only the slack at the end of the events file's last page is left.
      const filler = await open(join(mountPoint, 'filler'), 'w');
      try {
        for (;;) await filler.write(Buffer.alloc(4096));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        await filler.close();
      }
      const error = await rejection(bundle.recordReceipt({ receiptId: 'r-2', op: 'type', ref: 'e2', role: 'textbox', label: 'Name', text: 'x'.repeat(9000) }));
      expect(error.diskProblem).toBe('disk full');
      const partial = (await stat(events)).size;
      expect(partial).toBeGreaterThan(before); // the kernel took what fit: part of a line
      // Space comes back; the next record cuts the partial line before appending.
      execFileSync('mount', ['-o', 'remount,size=4m', mountPoint]);
      await bundle.recordCall({ method: 'demo.act', ok: false, code: 'service_unavailable' });
      await bundle.seal('killed', 'disk full');
      const dir = join(small.bundlesDir, bundle.bundleId);
      expect(await verifyBundle(dir)).toMatchObject({ ok: true });
      const text = await readFile(events, 'utf8');
      expect(text).not.toContain('r-2');
      expect(text.trimEnd().split('\n').map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['consent', 'receipt', 'call', 'end']);
    } finally {
      execFileSync('umount', [mountPoint]);
    }
  });
});
