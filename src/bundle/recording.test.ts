// The recording inside a bundle: frames and gaps written in order and durably, sealed with the
// bundle, verify naming a changed or missing frame, recovery sealing a crashed recording.
import { appendFile, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyBundle } from './index.js';
import { fakeJpeg, freshStore, openStore, readEvents } from './bundle.test-support.js';
import { CONSENT } from './bundle.test-support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const fresh = await freshStore();
  cleanups.push(fresh.cleanup);
  return fresh;
}

async function indexLines(dir: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(dir, 'recording', 'index.ndjson'), 'utf8');
  return text.trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the recording in a bundle', () => {
  it('writes frames and gaps in order, each frame file durable before its index line, and seals them', async () => {
    const { store } = await setup();
    const bundle = await store.create(CONSENT);
    const dir = join(store.bundlesDir, bundle.bundleId);
    // Queued back to back: they are committed together, in order.
    await Promise.all([
      bundle.recording.recordFrame({ data: fakeJpeg(900), at: 10, width: 1280, height: 720 }),
      bundle.recording.recordFrame({ data: fakeJpeg(800), at: 20, width: 1280, height: 720 }),
      bundle.recording.recordGap(30, 'not capture-safe'),
      bundle.recording.recordFrame({ data: fakeJpeg(700), at: 40, width: 1280, height: 720 }),
    ]);
    expect(bundle.recording.frames).toBe(3);
    expect(bundle.recording.bytes).toBe(2400);
    await bundle.seal('killed', 'kill control');
    const lines = await indexLines(dir);
    expect(lines.map((l) => [l.type, l.file ?? l.reason])).toEqual([
      ['frame', 'recording/1.jpg'],
      ['frame', 'recording/2.jpg'],
      ['gap', 'not capture-safe'],
      ['frame', 'recording/3.jpg'],
      ['gap', 'session killed: kill control'],
    ]);
    expect((await readFile(join(dir, 'recording', '2.jpg'))).length).toBe(800);
    const end = (await readEvents(dir)).at(-1) as Record<string, unknown>;
    expect(end.recording).toMatchObject({ frames: 3, gaps: 2, bytes: 2400 });
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { files: { path: string }[] };
    expect(manifest.files.map((f) => f.path)).toEqual(['events.ndjson', 'recording/1.jpg', 'recording/2.jpg', 'recording/3.jpg', 'recording/index.ndjson']);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
    await expect(bundle.recording.recordFrame({ data: fakeJpeg(), at: 50, width: 1, height: 1 })).rejects.toThrow(/recording has ended/);
  });

  it('refuses what is not a frame, naming the field, and writes nothing for it', async () => {
    const { store } = await setup();
    const bundle = await store.create(CONSENT);
    await expect(bundle.recording.recordFrame({ data: Buffer.from('not a jpeg'), at: 1, width: 1, height: 1 })).rejects.toThrow(/not a JPEG/);
    await expect(bundle.recording.recordFrame({ data: fakeJpeg(), at: Number.NaN, width: 1, height: 1 })).rejects.toThrow(/at must be a time/);
    await expect(bundle.recording.recordGap(1, '')).rejects.toThrow(/reason/);
    expect(bundle.recording.frames).toBe(0);
    await bundle.seal('complete', 'demo.end');
    expect((await indexLines(join(store.bundlesDir, bundle.bundleId))).map((l) => l.reason)).toEqual(['session ended']);
  });

  it('verify names a changed frame, a missing frame and a cut index', async () => {
    const { store } = await setup();
    const bundle = await store.create(CONSENT);
    for (let i = 0; i < 3; i++) await bundle.recording.recordFrame({ data: fakeJpeg(500 + i), at: i, width: 10, height: 10 });
    await bundle.seal('complete', 'demo.end');
    const dir = join(store.bundlesDir, bundle.bundleId);
    const original = await readFile(join(dir, 'recording', '2.jpg'));

    const changed = Buffer.from(original);
    changed[10] = (changed[10] as number) ^ 0xff;
    await writeFile(join(dir, 'recording', '2.jpg'), changed);
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'recording/2.jpg', problem: expect.stringMatching(/content changed/) });

    await rm(join(dir, 'recording', '2.jpg'));
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'recording/2.jpg', problem: expect.stringMatching(/missing/) });
    await writeFile(join(dir, 'recording', '2.jpg'), original);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });

    const index = await readFile(join(dir, 'recording', 'index.ndjson'));
    await truncate(join(dir, 'recording', 'index.ndjson'), index.indexOf(0x0a) + 1);
    expect(await verifyBundle(dir)).toMatchObject({ ok: false, file: 'recording/index.ndjson' });
  });

  it('a crash mid-recording: recovery cuts a torn index line, lists the frame no line names, and seals what was written', async () => {
    const { dataDir, store } = await setup();
    const bundle = await store.create(CONSENT);
    const dir = join(store.bundlesDir, bundle.bundleId);
    await bundle.recording.recordFrame({ data: fakeJpeg(), at: 1, width: 10, height: 10 });
    await bundle.recording.recordFrame({ data: fakeJpeg(), at: 2, width: 10, height: 10 });
    // What a crash can leave: a frame file whose line never got written, then a torn line.
    await writeFile(join(dir, 'recording', '3.jpg'), fakeJpeg());
    await appendFile(join(dir, 'recording', 'index.ndjson'), '{"seq":2,"prev":"ab');

    const next = await openStore(dataDir);
    expect(await next.recoverUnsealed()).toEqual([bundle.bundleId]);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true });
    const end = (await readEvents(dir)).at(-1) as Record<string, unknown>;
    expect(end).toMatchObject({ state: 'killed', reason: 'host crash', unreferencedFiles: ['recording/3.jpg'], recording: { frames: 2, gaps: 1 } });
    expect((await indexLines(dir)).map((l) => l.file ?? l.reason)).toEqual(['recording/1.jpg', 'recording/2.jpg', 'session killed: host crash']);
  });
});
