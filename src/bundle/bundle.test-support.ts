// Shared by the bundle tests: a temp data folder and a ready-made session.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBundleStore, type BundleStore, type SessionBundle } from './index.js';

export async function tempDataDir(): Promise<{ dataDir: string; cleanup: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cutright-bundle-'));
  return { dataDir, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

/** Bytes that start like a JPEG (the store checks the FF D8 FF signature, not the whole image). */
export function fakeJpeg(size = 600): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(Math.max(0, size - 6)), Buffer.from([0xff, 0xd9])]);
}

export const CONSENT = {
  sessionId: 's-test-1',
  appId: 'app.orthiclabs.demo-fixture',
  appName: 'Demo Fixture',
  agentName: 'test agent',
  requestedAt: 1_700_000_000_000,
  answeredAt: 1_700_000_002_000,
  answeredBy: 'local user via web shell',
  requester: { pid: 4242, executable: '/usr/bin/agent <x>', otherUser: 'mallory', sharedWith: 1, unknown: null },
};

/** A session with two acts (a click with where it happened, and a typed text, each with a picture) and three calls. */
export async function recordSession(store: BundleStore): Promise<SessionBundle> {
  const bundle = await store.create(CONSENT);
  await bundle.recordCall({ method: 'demo.snapshot', ok: true });
  await bundle.recordReceipt({
    receiptId: 'r-click1', op: 'click', ref: 'e1', role: 'button', label: 'Submit',
    place: { box: { x: 100, y: 200, width: 80, height: 30 }, point: { x: 140, y: 215 }, viewport: { width: 1280, height: 720 } },
  });
  await bundle.recordPicture('r-click1', { mime: 'image/jpeg', data: fakeJpeg() });
  await bundle.recordCall({ method: 'demo.act', ok: true });
  await bundle.recordReceipt({ receiptId: 'r-type2', op: 'type', ref: 'e2', role: 'textbox', label: 'Name', text: 'Ada <b>&</b>' });
  await bundle.recordPicture('r-type2', { mime: 'image/jpeg', data: fakeJpeg() });
  await bundle.recordCall({ method: 'demo.act', ok: false, code: 'target_blocked' });
  return bundle;
}

export async function openStore(dataDir: string, now?: () => number): Promise<BundleStore> {
  return openBundleStore({ dataDir, ...(now ? { now } : {}) });
}

/** A fresh data folder with a store open on it: what each bundle test starts from. */
export async function freshStore(): Promise<{ dataDir: string; cleanup: () => Promise<void>; store: BundleStore }> {
  const { dataDir, cleanup } = await tempDataDir();
  return { dataDir, cleanup, store: await openStore(dataDir) };
}

/** A bundle's events, parsed line by line. */
export async function readEvents(dir: string): Promise<Record<string, unknown>[]> {
  return (await readFile(join(dir, 'events.ndjson'), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}
