// Caption edits beside a sealed bundle: the original still verifies, the edit is reported as
// an edit, and an edit that was changed, moved or forged fails verify naming annotations.json.
import { generateKeyPairSync } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyBundle, type BundleStore } from './index.js';
import { openStore, readEvents, recordSession, tempDataDir } from './bundle.test-support.js';
import { fingerprintOf, signBytes } from './signing.js';

let cleanup: () => Promise<void>;
let store: BundleStore;
let dir: string;
let bundleId: string;
let clock = 1_700_000_100_000;

beforeEach(async () => {
  let dataDir: string;
  ({ dataDir, cleanup } = await tempDataDir());
  store = await openStore(dataDir, () => clock);
  const bundle = await recordSession(store);
  await bundle.seal('complete', 'demo.end');
  bundleId = bundle.bundleId;
  dir = join(store.bundlesDir, bundleId);
});
afterEach(() => cleanup());

describe('receipts record where the act happened', () => {
  it('keeps the box, point and viewport in picture pixels, and the steps carry them', async () => {
    const receipt = (await readEvents(dir)).find((e) => e['receiptId'] === 'r-click1' && e['type'] === 'receipt');
    expect(receipt).toMatchObject({ box: { x: 100, y: 200, width: 80, height: 30 }, point: { x: 140, y: 215 }, viewport: { width: 1280, height: 720 } });
    const [click, typed] = (await store.get(bundleId)).steps;
    expect(click).toMatchObject({ box: { x: 100, y: 200, width: 80, height: 30 }, point: { x: 140, y: 215 }, viewport: { width: 1280, height: 720 } });
    expect(typed?.box).toBeUndefined();
  });

  it('refuses a malformed place, naming it, and writes nothing', async () => {
    const { dataDir: other, cleanup: done } = await tempDataDir();
    try {
      const fresh = await openStore(other);
      const bundle = await fresh.create({ sessionId: 's-x', appId: 'a', appName: 'A', agentName: 'x', requestedAt: 1, answeredAt: 2, answeredBy: 'me' });
      const bad = { box: { x: -1, y: 0, width: 1, height: 1 }, viewport: { width: 10, height: 10 } };
      await expect(bundle.recordReceipt({ receiptId: 'r-1', op: 'click', ref: 'e', role: 'button', label: 'B', place: bad })).rejects.toThrow(/receipt\.box/);
      expect(await readEvents(join(fresh.bundlesDir, bundle.bundleId))).toHaveLength(1);
    } finally {
      await done();
    }
  });
});

describe('captions', () => {
  it('are written from the receipt', async () => {
    const steps = (await store.get(bundleId)).steps;
    expect(steps.map((s) => s.caption)).toEqual(['Click **Submit**', 'Type "Ada <b>&</b>" into **Name**']);
    expect(steps.map((s) => s.captionEditedAt)).toEqual([null, null]);
  });

  it('an edit is kept beside the seal: the original verifies, and verify reports the edit', async () => {
    const manifestBefore = await readFile(join(dir, 'manifest.json'));
    const edited = await store.editCaption(bundleId, 'r-click1', 'Send the form with **Submit**');
    expect(edited.steps[0]).toMatchObject({ caption: 'Send the form with **Submit**', autoCaption: 'Click **Submit**', captionEditedAt: clock });
    expect(edited.edits).toEqual({ captions: 1, updatedAt: clock, problem: null });
    expect(await readFile(join(dir, 'manifest.json'))).toEqual(manifestBefore);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true, keySource: 'installation', edits: { file: 'annotations.json', captions: 1, updatedAt: clock } });

    // Read back by a fresh store (a restart): the edit stands.
    const again = await openStore(join(store.bundlesDir, '..'));
    expect((await again.get(bundleId)).steps[0]?.caption).toBe('Send the form with **Submit**');

    // Going back to the original removes the edit.
    clock += 1000;
    const reverted = await store.editCaption(bundleId, 'r-click1', null);
    expect(reverted.steps[0]).toMatchObject({ caption: 'Click **Submit**', captionEditedAt: null });
    expect(await verifyBundle(dir)).toMatchObject({ ok: true, edits: { captions: 0 } });
  });

  it('refuses bad text, an unknown step and an open bundle, each saying why', async () => {
    await expect(store.editCaption(bundleId, 'r-click1', '   ')).rejects.toThrow(/cannot be empty/);
    await expect(store.editCaption(bundleId, 'r-click1', 'two\nlines')).rejects.toThrow(/one line/);
    await expect(store.editCaption(bundleId, 'r-click1', 'x'.repeat(301))).rejects.toThrow(/at most 300/);
    await expect(store.editCaption(bundleId, 'r-nope', 'Hi')).rejects.toThrow(/no step with receipt "r-nope"/);
    const open = await store.create({ sessionId: 's-2', appId: 'a', appName: 'A', agentName: 'x', requestedAt: 1, answeredAt: 2, answeredBy: 'me' });
    await open.recordReceipt({ receiptId: 'r-o', op: 'click', ref: 'e', role: 'button', label: 'B' });
    await expect(store.editCaption(open.bundleId, 'r-o', 'Hi')).rejects.toThrow(/still being recorded/);
  });

  it('an edit changed by hand fails verify, naming annotations.json, and is not shown', async () => {
    await store.editCaption(bundleId, 'r-click1', 'Press **Submit**');
    const path = join(dir, 'annotations.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('Press **Submit**', 'Press **Delete all**'));
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'annotations.json', problem: expect.stringMatching(/changed after they were signed/) });
    const detail = await store.get(bundleId);
    expect(detail.steps[0]?.caption).toBe('Click **Submit**');
    expect(detail.edits?.problem).toMatch(/changed after they were signed/);
  });

  it('an edit moved onto another bundle, or signed by another key, fails verify', async () => {
    await store.editCaption(bundleId, 'r-click1', 'Press **Submit**');
    const other = await recordSession(store);
    await other.seal('complete', 'demo.end');
    const otherDir = join(store.bundlesDir, other.bundleId);
    await copyFile(join(dir, 'annotations.json'), join(otherDir, 'annotations.json'));
    expect(await verifyBundle(otherDir)).toMatchObject({ ok: false, file: 'annotations.json', problem: expect.stringMatching(/annotates bundle/) });

    // Re-signed with a key of the editor's own: not the sealing key.
    const file = JSON.parse(await readFile(join(dir, 'annotations.json'), 'utf8'));
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    file.annotations.signing = { algorithm: 'Ed25519', fingerprint: fingerprintOf(publicKey), publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
    const forger = { privateKey, publicKey, publicKeyPem: file.annotations.signing.publicKey, fingerprint: file.annotations.signing.fingerprint };
    file.signature = signBytes(forger, Buffer.from(JSON.stringify(file.annotations), 'utf8')).toString('base64');
    await writeFile(join(dir, 'annotations.json'), JSON.stringify(file));
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'annotations.json', problem: expect.stringMatching(/not the key that sealed the bundle/) });
  });

  it('other files beside the seal still fail verify', async () => {
    await mkdir(join(dir, 'notes'));
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'notes/' });
  });
});
