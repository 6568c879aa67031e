// What the snapshot cap keeps on a page with more elements than it lists: the focused element's
// neighbourhood and what is in or near the viewport first, then the rest from the top, and
// always in document order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCdpDriver } from './cdp-driver.js';
import { createChromiumLauncher } from './chromium-launcher.js';
import { servePages, type PageServer } from './test-pages/page-server.test-support.js';
import type { OpenedTarget, TargetDriver, TargetLauncher } from './types.js';

const BUTTONS = 600;
const PAGE = `<!doctype html><meta charset="utf-8"><meta name="cutright-capture-state" content="safe"><title>Many</title>
<style>button{display:block;height:30px;margin:0}</style>
${Array.from({ length: BUTTONS }, (_, i) => `<button type="button" id="b${i}">Button ${i}</button>`).join('')}`;

let site: PageServer;
let launcher: TargetLauncher;
let target: OpenedTarget;
let driver: TargetDriver;

beforeAll(async () => {
  site = await servePages({ '/': PAGE });
  launcher = createChromiumLauncher();
  target = await launcher.open(site.url('/'));
  driver = await createCdpDriver(target.transport, { allowedOrigins: [site.origin], maxElements: 100 });
});

afterAll(async () => {
  await driver?.close();
  await launcher?.close();
  await site?.close();
});

async function evaluate(expression: string): Promise<void> {
  await target.transport.send('Runtime.evaluate', { expression, awaitPromise: true });
}

const numbers = (labels: string[]): number[] => labels.map((label) => Number(label.replace('Button ', '')));

describe('the snapshot cap', () => {
  it('keeps the top of an unscrolled page, in document order', async () => {
    const snapshot = await driver.snapshot();
    expect(snapshot.truncated).toBe(true);
    expect(numbers(snapshot.elements.map((e) => e.label))).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('keeps the focused element and its neighbours, and the viewport, before the rest; still in document order', async () => {
    // The viewport shows about buttons 300 to 320 (30 px each); the focus is far below, on 550.
    await evaluate(`document.getElementById('b550').focus({ preventScroll: true }); scrollTo(0, 300 * 30)`);
    const kept = numbers((await driver.snapshot()).elements.map((e) => e.label));
    expect(kept).toHaveLength(100);
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
    for (let n = 525; n <= 575; n++) expect(kept).toContain(n);
    for (let n = 300; n <= 315; n++) expect(kept).toContain(n);
    // Near the viewport (within one viewport) before the top of the page.
    expect(kept).toContain(290);
    expect(kept).not.toContain(0);
  });
});
