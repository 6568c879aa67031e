// The video's plan, without a browser: its length is the recording's, pictures at most 30 a
// second and a key frame at least every two seconds, gaps shown as gaps, and each step's
// caption and highlight over the right stretch of time.
import { describe, expect, it } from 'vitest';
import type { RecordingLine } from '../bundle/recording-format.js';
import type { BundleStep } from '../bundle/views.js';
import { HIGHLIGHT_MS, KEY_FRAME_MS, MIN_FRAME_MS, outputSize, overlayOf, planVideo } from './plan.js';
import { ExportError } from './source.js';

const T0 = 1_750_000_000_000;
let seq = 0;
const frame = (at: number, n: number): RecordingLine => ({ seq: seq++, prev: '', type: 'frame', at: T0 + at, file: `recording/${n}.jpg`, size: 1, sha256: '', width: 1280, height: 720 });
const gap = (at: number, reason: string): RecordingLine => ({ seq: seq++, prev: '', type: 'gap', at: T0 + at, reason });
const step = (at: number, label: string): BundleStep => ({
  index: 0, receiptId: `r-${label}`, at: T0 + at, op: 'click', ref: 'e', role: 'button', label, picture: null,
  box: { x: 100, y: 100, width: 80, height: 30 }, point: { x: 140, y: 115 }, viewport: { width: 1280, height: 720 },
  caption: `Click **${label}**`, autoCaption: `Click **${label}**`, captionEditedAt: null,
});

describe('planVideo', () => {
  const recording = [frame(0, 1), frame(5, 2), frame(10, 3), frame(1000, 4), gap(3000, 'not capture-safe: private'), frame(6000, 5), gap(9000, 'session ended')];
  const steps = [step(1200, 'One'), step(7000, 'Two')];
  const plan = planVideo(recording, steps);

  it('lasts as long as the recording and covers it without holes', () => {
    expect(plan.duration).toBe(9000);
    expect(plan.frames[0]!.at).toBe(0);
    for (const [i, f] of plan.frames.entries()) expect(f.at + f.duration).toBe(plan.frames[i + 1]?.at ?? 9000);
  });

  it('has at most 30 pictures a second (frames painted closer together show the latest) and a key frame at least every 2 s', () => {
    for (const f of plan.frames.slice(0, -1)) expect(f.duration).toBeGreaterThanOrEqual(MIN_FRAME_MS - 1e-6);
    expect(plan.frames.slice(0, 2).map((f) => f.image)).toEqual(['recording/1.jpg', 'recording/3.jpg']);
    const keys = plan.frames.filter((f) => f.keyFrame).map((f) => f.at);
    expect(keys[0]).toBe(0);
    for (let i = 1; i < keys.length; i += 1) expect(keys[i]! - keys[i - 1]!).toBeLessThanOrEqual(KEY_FRAME_MS + MIN_FRAME_MS);
    expect(9000 - keys.at(-1)!).toBeLessThanOrEqual(KEY_FRAME_MS + MIN_FRAME_MS);
  });

  it('shows a gap as a gap with its reason, never the frame before it', () => {
    const inGap = plan.frames.filter((f) => f.at >= 3000 && f.at < 6000);
    expect(inGap.length).toBeGreaterThan(0);
    for (const f of inGap) expect(f).toMatchObject({ image: null, gap: 'not capture-safe: private' });
  });

  it("puts each step's caption from a little before its act until the next, its highlight around the act", () => {
    const at = (t: number) => [...plan.frames].reverse().find((f) => f.at <= t)!;
    expect(at(400)).toMatchObject({ step: null, highlight: false });
    expect(at(1200 - 100)).toMatchObject({ step: 0, highlight: true });
    expect(at(1200 + HIGHLIGHT_MS - 50)).toMatchObject({ step: 0, highlight: true });
    expect(at(1200 + HIGHLIGHT_MS + 50)).toMatchObject({ step: 0, highlight: false });
    expect(at(7000)).toMatchObject({ step: 1, highlight: true, image: 'recording/5.jpg' });
  });

  it('refuses a recording with no frame', () => {
    expect(() => planVideo([gap(0, 'not capture-safe'), gap(10, 'session ended')], [])).toThrow(ExportError);
  });
});

describe('the overlay and the size', () => {
  it("scales the step's box into the output's pixels and numbers the step", () => {
    const overlay = overlayOf([step(0, 'Go')], 0, true, null, 640, 360);
    expect(overlay).toMatchObject({ box: { x: 50, y: 50, width: 40, height: 15 }, point: { x: 70, y: 57.5 }, caption: { step: 'Step 1 of 1', parts: [{ text: 'Click ', strong: false }, { text: 'Go', strong: true }] } });
    expect(overlayOf([step(0, 'Go')], 0, false, null, 640, 360).stroke).toBe(0);
  });

  it('keeps sides even and at most 1920 wide', () => {
    expect(outputSize(1280, 720)).toEqual({ width: 1280, height: 720 });
    expect(outputSize(2560, 1441)).toEqual({ width: 1920, height: 1080 });
    expect(outputSize(1001, 555)).toEqual({ width: 1002, height: 556 });
  });
});
