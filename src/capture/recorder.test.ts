// The recorder against the real fixture in a real Chromium: frames when the page paints, none
// when idle, the screencast paused the moment the page goes private and resumed on a fresh
// document, gaps with their reasons, kept frames stored in a real bundle.
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCdpDriver } from '../targets/cdp-driver.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import { startFixtureServer, type FixtureServer } from '../targets/fixture/fixture-server.js';
import type { TargetLauncher } from '../targets/types.js';
import { freshStore, CONSENT } from '../bundle/bundle.test-support.js';
import { FrameGate } from './frame-gate.js';
import { startRecorder, type KeptFrame, type RecordingStatus } from './recorder.js';
import { showsPrivatePanel, waitFor } from './capture.test-support.js';
import { jpegSize } from './jpeg-size.js';

let fixture: FixtureServer;
let launcher: TargetLauncher;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  fixture = await startFixtureServer();
  launcher = createChromiumLauncher();
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await launcher?.close();
  await fixture?.close();
});

async function session() {
  const target = await launcher.open(fixture.url);
  const driver = await createCdpDriver(target.transport, { allowedOrigins: [fixture.url] });
  const { store, cleanup } = await freshStore();
  cleanups.push(cleanup);
  const bundle = await store.create(CONSENT);
  const frames: KeptFrame[] = [];
  const statuses: RecordingStatus[] = [];
  const gate = new FrameGate(driver);
  const recorder = startRecorder({
    transport: target.transport,
    gate,
    recording: bundle.recording,
    onFrame: (frame) => frames.push(frame),
    onStatus: (status) => statuses.push(status),
  });
  const evaluate = (expression: string) => target.transport.send('Runtime.evaluate', { expression, awaitPromise: true });
  cleanups.push(async () => {
    await recorder.stop();
    gate.close();
    await driver.close();
  });
  return { target, driver, bundle, store, gate, recorder, frames, statuses, evaluate };
}

describe('the recorder', () => {
  it('keeps frames as the page paints, at the viewport size, and stores them in the bundle', async () => {
    const s = await session();
    await waitFor(() => s.frames.length >= 1, 5000, 'a first frame');
    expect(s.statuses[0]).toEqual({ state: 'live' });
    const first = s.frames[0] as KeptFrame;
    expect(jpegSize(first.data)).toEqual({ width: 1280, height: 720 });
    expect(first.viewport).toEqual({ width: 1280, height: 720 });
    const before = s.frames.length;
    await s.evaluate(`document.getElementById('greeting').textContent = 'Hello, Ada!'`);
    await waitFor(() => s.frames.length > before, 5000, 'a frame after a change');
    await s.recorder.stop();
    await s.bundle.seal('complete', 'demo.end');
    const dir = join(s.store.bundlesDir, s.bundle.bundleId);
    const index = (await readFile(join(dir, 'recording', 'index.ndjson'), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(index.filter((l) => l.type === 'frame').length).toBe(s.frames.length);
    expect(index.at(-1)).toMatchObject({ type: 'gap', reason: 'session ended' });
  });

  it('an idle page sends no frames', async () => {
    const s = await session();
    await waitFor(() => s.frames.length >= 1, 5000, 'a first frame');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = s.recorder.stats.received;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(s.recorder.stats.received).toBe(settled);
  });

  it('Go private: paused at once, a gap saying why, no frame of the panel; a fresh document resumes', async () => {
    const s = await session();
    await waitFor(() => s.frames.length >= 1, 5000, 'a first frame');
    await s.evaluate(`document.getElementById('go-private').click()`);
    await waitFor(() => s.recorder.status.state === 'paused', 5000, 'the pause');
    expect(s.recorder.status).toEqual({ state: 'paused', reason: expect.stringContaining('declares its capture state "unsafe"') as string });
    const kept = s.frames.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(s.frames.length).toBe(kept);
    for (const frame of s.frames) expect(showsPrivatePanel(frame.data)).toBe(false);
    // A still picture is refused the same way.
    expect(await s.gate.vouch(() => s.driver.screenshot().catch(() => null))).toBeNull();

    await s.target.transport.send('Page.reload');
    await waitFor(() => s.recorder.status.state === 'live' && s.frames.length > kept, 5000, 'frames of the fresh document');
    await s.recorder.stop();
    await s.bundle.seal('killed', 'kill control');
    const dir = join(s.store.bundlesDir, s.bundle.bundleId);
    const gaps = (await readFile(join(dir, 'recording', 'index.ndjson'), 'utf8'))
      .trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; reason?: string }).filter((l) => l.type === 'gap').map((l) => l.reason);
    expect(gaps[0]).toMatch(/^not capture-safe: the page declares its capture state "unsafe"/);
    expect(gaps.at(-1)).toBe('session killed: kill control');
  });
});
