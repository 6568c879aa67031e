// A real demo to export: a real host session on the fixture in a real Chromium (acts typed and
// clicked through the socket, frames screencast and sealed), and a way to read what an export
// wrote in that Chromium, as a person's browser would open it.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { armedSnapshot, find, openSession, startTestCore, type TestCore } from '../host/harness.test-support.js';
import { findBrowser } from '../targets/chromium-launcher.js';

export interface RecordedDemo {
  t: TestCore;
  bundleId: string;
  dir: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records a session of four steps (type, click, click, press) with pauses between them, and ends it. */
export async function recordDemo(): Promise<RecordedDemo> {
  const t = await startTestCore();
  const { token } = await openSession(t);
  const elements = await armedSnapshot(t.client, token);
  // A while of the page as it opened, before the first step's caption comes in.
  await pause(1200);
  await t.client.call('demo.act', { token, ref: find(elements, 'textbox', 'Name').ref, op: 'type', text: 'Ada' });
  await pause(700);
  await t.client.call('demo.act', { token, ref: find(elements, 'checkbox', 'Subscribe').ref, op: 'click' });
  await pause(700);
  await t.client.call('demo.act', { token, ref: find(elements, 'button', 'Submit').ref, op: 'click' });
  await pause(700);
  await t.client.call('demo.act', { token, ref: find(elements, 'textbox', 'Name').ref, op: 'press', key: 'enter' });
  await pause(900);
  const ended = await t.client.call('demo.end', { token });
  return { t, bundleId: ended.bundle_id, dir: path.join(t.dataDir, 'bundles', ended.bundle_id) };
}

export async function launchViewer(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: findBrowser().path!, args: ['--no-sandbox', '--disable-gpu'] });
}

/** An RGB colour's distance from `#rrggbb`. */
export function distance(rgb: readonly number[], hex: string): number {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return Math.max(...want.map((w, i) => Math.abs(w - rgb[i]!)));
}
