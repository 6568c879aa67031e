// No frame after a kill: through the real host (real Chromium, real socket, real bundle), a
// page that repaints every animation frame is recorded and streamed; the moment Stop demo is
// pressed nothing more is streamed, and the sealed recording holds only frames painted before
// the press, ending with the kill's gap. The page takes half a second to close, as a busy
// window can: capture must stop at the kill, not when the page is finally gone. (Two things
// stop it, the session's capture.stop() and the driver's watch saying the target is gone;
// with both switched off this fails: frames keep coming until the page closes.)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveFrame } from '../ui-protocol/index.js';
import { armedSnapshot, evaluate, openSession, startTestCore, waitFor, type TestCore } from '../host/harness.test-support.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import type { CdpTransport, OpenedTarget, TargetLauncher } from '../targets/types.js';

const CLOSE_TAKES_MS = 500;

/** The real launcher, whose pages take CLOSE_TAKES_MS to close (by CDP or by the launcher). */
function slowClosingLauncher(): TargetLauncher {
  const inner = createChromiumLauncher();
  const slowly = <T>(close: () => Promise<T>) => new Promise((resolve) => setTimeout(resolve, CLOSE_TAKES_MS)).then(close);
  return {
    async open(url: string): Promise<OpenedTarget> {
      const target = await inner.open(url);
      const transport: CdpTransport = {
        send: (method, params) => (method === 'Page.close' ? slowly(() => target.transport.send(method, params)) : target.transport.send(method, params)),
        on: (event, listener) => target.transport.on(event, listener),
        closed: target.transport.closed,
      };
      return { transport, close: () => slowly(() => target.close()) };
    },
    close: () => inner.close(),
  };
}

let t: TestCore;

beforeAll(async () => {
  t = await startTestCore({ inner: slowClosingLauncher() });
});
afterAll(() => t?.stop());

describe('the kill stops capture', () => {
  it('streams no frame after Stop demo, and stores only frames painted before it', { timeout: 60_000 }, async () => {
    const granted = await openSession(t);
    await armedSnapshot(t.client, granted.token);
    const frames: { frame: LiveFrame; afterKill: boolean }[] = [];
    let killed = false;
    const unsubscribe = t.core.host.bridge.subscribeFrames((frame) => {
      if (frame.sessionId === granted.session) frames.push({ frame, afterKill: killed });
    });
    // A page that never stops painting: the screencast has a frame for every animation frame.
    await evaluate(t.launcher.last, `(() => {
      const greeting = document.getElementById('greeting');
      const tick = () => { greeting.textContent = 'frame ' + performance.now().toFixed(1); requestAnimationFrame(tick); };
      tick();
    })()`);
    await waitFor(() => (frames.length >= 10 ? true : undefined), 'ten streamed frames');

    const pressedAt = Date.now();
    const sealed = t.core.host.kill(granted.session);
    killed = true;
    await sealed;
    // Give frames already on their way, and the slow close, every chance to let frames (wrongly) arrive.
    await new Promise((resolve) => setTimeout(resolve, CLOSE_TAKES_MS + 300));
    unsubscribe();
    expect(frames.filter((f) => f.afterKill).map((f) => f.frame.seq)).toEqual([]);

    const bundle = (await t.core.bundles.list()).find((b) => b.sessionId === granted.session);
    if (!bundle) throw new Error('no bundle');
    const lines = (await readFile(join(t.core.bundles.bundlesDir, bundle.bundleId, 'recording', 'index.ndjson'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; at: number; reason?: string });
    const stored = lines.filter((line) => line.type === 'frame');
    expect(stored.length).toBeGreaterThan(0);
    for (const frame of stored) expect(frame.at).toBeLessThanOrEqual(pressedAt);
    expect(lines.at(-1)).toMatchObject({ type: 'gap', reason: 'session killed: kill control' });
  });
});
