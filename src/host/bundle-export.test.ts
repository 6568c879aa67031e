// The UI's video and GIF exports through the bridge, on a real recorded session: the file goes
// to the data folder's exports/, and meanwhile the host's view carries the export's progress
// (how the renderer draws its bar, in both shells, with no channel of its own).
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDemo, type RecordedDemo } from '../export/export.test-support.js';
import type { ExportProgress } from '../ui-protocol/index.js';

let demo: RecordedDemo;

beforeAll(async () => {
  demo = await recordDemo();
}, 120_000);

afterAll(async () => {
  await demo?.t.stop();
});

describe('exportBundle as a video or GIF', () => {
  for (const format of ['webm', 'mp4', 'gif'] as const) {
    it(`${format}: writes it to exports/, its progress in the view from 0 to the end, then gone`, async () => {
      const seen: ExportProgress[][] = [];
      const stop = demo.t.core.host.bridge.subscribe((view) => seen.push(view.exports ?? []));
      const result = await demo.t.core.host.bridge.exportBundle(demo.bundleId, format);
      await new Promise((resolve) => setImmediate(resolve));
      stop();
      expect(path.dirname(result.path)).toBe(path.join(demo.t.dataDir, 'exports'));
      expect(result.path.endsWith(`.${format}`)).toBe(true);
      expect((await stat(result.path)).size).toBe(result.bytes);
      const mine = seen.map((list) => list.find((e) => e.bundleId === demo.bundleId)).filter((e) => e !== undefined);
      expect(mine[0]).toEqual({ bundleId: demo.bundleId, format, done: 0 });
      expect(mine.length).toBeGreaterThan(2);
      const dones = mine.map((e) => e.done);
      expect(dones).toEqual([...dones].sort((a, b) => a - b));
      expect(seen.at(-1)).toEqual([]);
      expect(demo.t.view().exports).toEqual([]);
    }, 120_000);
  }

  it('refuses a second export of the same bundle while one runs, and one of a bundle that does not verify', async () => {
    const first = demo.t.core.host.bridge.exportBundle(demo.bundleId, 'webm');
    await expect(demo.t.core.host.bridge.exportBundle(demo.bundleId, 'gif')).rejects.toThrow(/being exported already \(as webm\)/);
    await first;
    // A file added to the sealed bundle: it no longer verifies, so no video is made of it.
    const { writeFile, rm } = await import('node:fs/promises');
    const added = path.join(demo.dir, 'added.txt');
    await writeFile(added, 'x');
    try {
      await expect(demo.t.core.host.bridge.exportBundle(demo.bundleId, 'mp4')).rejects.toThrow(/does not verify/);
      await new Promise((resolve) => setImmediate(resolve));
      expect(demo.t.view().exports).toEqual([]);
    } finally {
      await rm(added);
    }
    expect(existsSync(added)).toBe(false);
  }, 120_000);
});
