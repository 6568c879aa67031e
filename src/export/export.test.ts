// The video and GIF exports of a real demo (a real host session on the fixture in a real
// Chromium), opened as a person's browser opens them: the video plays in a <video> for as
// long as the recording, and at each step's time its picture shows the step's highlight;
// the GIF decodes (Chromium's own ImageDecoder) with one frame per step.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIGHLIGHT_COLOUR } from '../bundle/presentation.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import type { TargetLauncher } from '../targets/types.js';
import { distance, launchViewer, recordDemo, type RecordedDemo } from './export.test-support.js';
import { exportGif } from './gif.js';
import { LEAD_MS, planVideo, stepPlace } from './plan.js';
import { readExportSource, type ExportSource } from './source.js';
import { exportVideo } from './video.js';

// The viewer's code runs in the page (Playwright passes it as text); the Node project has no
// DOM types, so the few browser globals it uses are declared here, for this file only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any, OffscreenCanvas: any, ImageDecoder: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

let demo: RecordedDemo;
let source: ExportSource;
let launcher: TargetLauncher;
let viewer: Browser;
let out: string;

beforeAll(async () => {
  demo = await recordDemo();
  source = await readExportSource(demo.dir);
  launcher = createChromiumLauncher();
  viewer = await launchViewer();
  out = await mkdtemp(path.join(os.tmpdir(), 'cutright-export-'));
  // The viewer's page: a file, so a secure context (ImageDecoder needs one).
  await writeFile(path.join(out, 'viewer.html'), '<!doctype html><body></body>');
}, 120_000);

afterAll(async () => {
  await viewer?.close();
  await launcher?.close();
  await demo?.t.stop();
  if (out) await rm(out, { recursive: true, force: true });
});

interface Sampled {
  duration: number;
  width: number;
  height: number;
  /** Per step: the share of pixels on its outline that are the highlight's colour, and the pixels themselves. */
  outlines: { onColour: number; pixels: number[][] }[];
}

/** Opens `file` in a <video>, seeks to each time and reads the pixels along each box's outline. */
async function sampleVideo(file: string, probes: { t: number; box: { x: number; y: number; width: number; height: number }; stroke: number }[]): Promise<Sampled> {
  const page = await viewer.newPage();
  try {
    await page.goto(pathToFileURL(path.join(out, 'viewer.html')).href);
    return await page.evaluate(
      async ({ data, type, probes, colour }) => {
        const video = document.createElement('video');
        video.muted = true;
        video.src = URL.createObjectURL(new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type }));
        document.body.append(video);
        await new Promise((resolve, reject) => {
          video.onloadeddata = resolve;
          video.onerror = () => reject(new Error(`the video does not load: ${video.error?.message}`));
        });
        const canvas = document.createElement('canvas');
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
        const want = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
        const outlines = [];
        for (const probe of probes) {
          await new Promise((resolve) => {
            video.onseeked = resolve;
            video.currentTime = probe.t;
          });
          ctx.drawImage(video, 0, 0);
          const { x, y, width, height } = probe.box;
          const mid = probe.stroke / 2;
          const points: [number, number][] = [];
          for (let i = 0.1; i < 0.9; i += 0.1) {
            points.push([x + width * i, y - mid], [x + width * i, y + height + mid]);
            points.push([x - mid, y + height * i], [x + width + mid, y + height * i]);
          }
          const pixels = points.map(([px, py]) => [...ctx.getImageData(Math.round(px), Math.round(py), 1, 1).data.slice(0, 3)]);
          const onColour = pixels.filter((p) => Math.max(...want.map((w, i) => Math.abs(w - p[i]!))) < 70).length / pixels.length;
          outlines.push({ onColour, pixels });
        }
        return { duration: video.duration, width: video.videoWidth, height: video.videoHeight, outlines };
      },
      { data: (await readFile(file)).toString('base64'), type: file.endsWith('.mp4') ? 'video/mp4' : 'video/webm', probes, colour: HIGHLIGHT_COLOUR },
    );
  } finally {
    await page.close();
  }
}

describe('the video export', () => {
  for (const format of ['webm', 'mp4'] as const) {
    it(`${format}: plays in a <video> as long as the recording, each step's highlight on its outline at its time`, async () => {
      const file = path.join(out, `demo.${format}`);
      const progress: number[] = [];
      const result = await exportVideo({ source, out: file, format, openTarget: () => launcher.open('about:blank'), onProgress: (p) => progress.push(p) });
      expect(result.path).toBe(file);
      expect(result.bytes).toBe((await stat(file)).size);
      expect(result.codec).toMatch(format === 'webm' ? /^vp09/ : /^avc1/);
      expect(progress[0]).toBe(0);
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));

      const plan = planVideo(source.recording, source.detail.steps);
      const steps = source.detail.steps;
      expect(steps).toHaveLength(4);
      const probes = steps.map((step) => {
        const place = stepPlace(step, plan.width, plan.height)!;
        return { t: (step.at - plan.start) / 1000, box: place.box, stroke: Math.max(3, Math.round(plan.width / 160)) };
      });
      const sampled = await sampleVideo(file, probes);
      const recordingSeconds = plan.duration / 1000;
      expect(sampled.duration).toBeGreaterThan(recordingSeconds * 0.9);
      expect(sampled.duration).toBeLessThan(recordingSeconds * 1.1);
      expect([sampled.width, sampled.height]).toEqual([plan.width, plan.height]);
      for (const [i, outline] of sampled.outlines.entries()) {
        expect(outline.onColour, `step ${i + 1}'s outline: ${JSON.stringify(outline.pixels)}`).toBeGreaterThan(0.8);
      }
    }, 120_000);
  }

  it('does not draw a highlight where no step is (the outline is the page\'s own colours then)', async () => {
    const plan = planVideo(source.recording, source.detail.steps);
    const first = source.detail.steps[0]!;
    const place = stepPlace(first, plan.width, plan.height)!;
    // Before the first step's lead: the page as it was, nothing drawn over it.
    const t = (first.at - plan.start - LEAD_MS - 300) / 1000;
    expect(t).toBeGreaterThan(0);
    const sampled = await sampleVideo(path.join(out, 'demo.webm'), [{ t, box: place.box, stroke: Math.max(3, Math.round(plan.width / 160)) }]);
    expect(sampled.outlines[0]!.onColour).toBeLessThan(0.2);
  }, 60_000);
});

describe('the GIF export', () => {
  it('decodes with one frame per step, each showing its highlight', async () => {
    const file = path.join(out, 'demo.gif');
    const result = await exportGif({ source, out: file, openTarget: () => launcher.open('about:blank') });
    expect(result.pictures).toBe(4);
    const data = (await readFile(file)).toString('base64');
    const page = await viewer.newPage();
    await page.goto(pathToFileURL(path.join(out, 'viewer.html')).href);
    const places = source.detail.steps.map((step) => stepPlace(step, 800, 450)!.box);
    const decoded = await page.evaluate(
      async ({ b64, places }) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const decoder = new ImageDecoder({ data: bytes, type: 'image/gif' });
        await decoder.tracks.ready;
        await decoder.completed;
        const count = decoder.tracks.selectedTrack!.frameCount;
        const frames = [];
        for (let i = 0; i < count; i += 1) {
          const { image } = await decoder.decode({ frameIndex: i });
          const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
          const ctx = canvas.getContext('2d')!;
          ctx.drawImage(image, 0, 0);
          // Along the top of the step's outline (the stroke sits just outside the box).
          const box = places[i]!;
          const stroke = Math.max(3, Math.round(canvas.width / 160));
          const top = [0.25, 0.5, 0.75].map((f) => [...ctx.getImageData(Math.round(box.x + box.width * f), Math.round(box.y - stroke / 2), 1, 1).data.slice(0, 3)]);
          frames.push({ width: image.displayWidth, height: image.displayHeight, duration: image.duration, top });
          image.close();
        }
        return frames;
      },
      { b64: data, places },
    );
    await page.close();
    expect(decoded).toHaveLength(4);
    for (const [i, frame] of decoded.entries()) {
      expect([frame.width, frame.height, frame.duration]).toEqual([800, 450, 3_000_000]);
      for (const pixel of frame.top) expect(distance(pixel, HIGHLIGHT_COLOUR), `step ${i + 1}: ${JSON.stringify(frame.top)}`).toBeLessThan(60);
    }
  }, 120_000);
});
