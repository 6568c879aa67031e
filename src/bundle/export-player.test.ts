// The HTML export's player: the frames inlined (each distinct frame once, the briefest left
// out), its one script allowed by its hash and nothing else, its data safe inside the page.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportBundleHtml } from './index.js';
import { CONSENT, fakeJpeg, freshStore } from './bundle.test-support.js';
import { PLAYER_SCRIPT } from './player-script.generated.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const T = 1_700_000_003_000;

async function exported(seal = true) {
  const fresh = await freshStore();
  cleanups.push(fresh.cleanup);
  const bundle = await fresh.store.create(CONSENT);
  const a = fakeJpeg(700);
  await bundle.recording.recordFrame({ data: a, at: T, width: 1280, height: 720 });
  // Shown 20 ms: left out, frame 1 stays on screen instead.
  await bundle.recording.recordFrame({ data: fakeJpeg(710), at: T + 1000, width: 1280, height: 720 });
  await bundle.recording.recordFrame({ data: fakeJpeg(720), at: T + 1020, width: 1280, height: 720 });
  await bundle.recordReceipt({
    receiptId: 'r-1', op: 'click', ref: 'e1', role: 'button', label: '</script><b>x', at: T + 1500,
    place: { box: { x: 10, y: 20, width: 30, height: 40 }, viewport: { width: 1280, height: 720 } },
  });
  await bundle.recording.recordGap(T + 2000, 'not capture-safe: private');
  // The same picture again later: inlined once.
  await bundle.recording.recordFrame({ data: a, at: T + 3000, width: 1280, height: 720 });
  if (seal) await bundle.seal('complete', 'demo.end');
  return exportBundleHtml(join(fresh.store.bundlesDir, bundle.bundleId));
}

function playerData(html: string) {
  const json = /<script type="application\/json" id="player-data">(.*?)<\/script>/s.exec(html)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json!) as { lines: { type: string; file?: string; reason?: string }[]; frames: string[]; steps: { caption: string; box?: unknown }[] };
}

describe('the HTML export’s player', () => {
  it('inlines each distinct frame once, leaves out frames shown under 100 ms, and keeps gaps and steps', async () => {
    const html = await exported();
    const data = playerData(html);
    expect(data.frames).toHaveLength(2);
    expect(data.frames.every((uri) => uri.startsWith('data:image/jpeg;base64,'))).toBe(true);
    expect(data.lines.map((l) => l.file ?? l.reason)).toEqual(['0', '0', '1', 'not capture-safe: private', '0', 'session ended']);
    expect(data.steps).toEqual([{ at: T + 1500, caption: 'Click **</script><b>x**', box: { x: 10, y: 20, width: 30, height: 40 }, viewport: { width: 1280, height: 720 } }]);
    expect(html).toContain('<section id="player" class="player" aria-label="Player" hidden>');
    expect(html).toContain('data-player-step="0"');
  });

  it('allows only its own script, by its hash; its data holds no "<" (no closing tag can end it early)', async () => {
    const html = await exported();
    const scripts = [...html.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1]!);
    expect(scripts).toEqual([PLAYER_SCRIPT]);
    const hash = createHash('sha256').update(PLAYER_SCRIPT, 'utf8').digest('base64');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toBe(`default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${hash}'`);
    const json = /<script type="application\/json" id="player-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(json).not.toContain('<');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it('a bundle still being recorded has no player and no script', async () => {
    const html = await exported(false);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('id="player"');
    expect(html).not.toContain('data-player-step');
  });
});
