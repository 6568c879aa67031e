import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBundleStore } from '../src/bundle/index.js';
import { picturePath } from '../src/ui-protocol/index.js';
import { APP_CSP, appPageUrl, createAppRequestHandler, isAppPageUrl, type AppRequestHandler } from './app-protocol.js';

let dir: string;
let handle: AppRequestHandler;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cutright-protocol-'));
  const renderer = path.join(dir, 'renderer');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>CutRight</title>');
  await writeFile(path.join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'secret.txt'), 'not for pages');
  await writeFile(path.join(dir, 'pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(path.join(dir, 'frame.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  handle = createAppRequestHandler({
    rendererDir: renderer,
    picturePath: (bundleId, picture) => (bundleId === 'b-1' && picture === 'pictures/r-1.png' ? path.join(dir, 'pic.png') : null),
    framePath: async (bundleId, frame) => (bundleId === 'b-1' && frame === 'recording/1.jpg' ? path.join(dir, 'frame.jpg') : null),
  });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

describe('the app protocol', () => {
  it('loads each window with its layout in the query and the hash', () => {
    expect(appPageUrl('main')).toBe('cutright://app/index.html?window=main#main');
    expect(appPageUrl('consent')).toBe('cutright://app/index.html?window=consent#consent');
    expect(appPageUrl('kill')).toBe('cutright://app/index.html?window=kill#kill');
    for (const role of ['main', 'consent', 'kill'] as const) expect(isAppPageUrl(appPageUrl(role))).toBe(true);
  });

  it('serves the page with a strict Content-Security-Policy and no-sniff', async () => {
    const response = await get('cutright://app/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<title>CutRight</title>');
    const csp = response.headers.get('content-security-policy');
    expect(csp).toBe(APP_CSP);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves assets and pictures, each with the policy', async () => {
    const script = await get('cutright://app/assets/index-abc.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(APP_CSP);
    const picture = await get('cutright://app/bundles/b-1/pictures/r-1.png');
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const frame = await get('cutright://app/bundles/b-1/recording/1.jpg');
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toBe('image/jpeg');
    expect((await get('cutright://app/bundles/b-1/recording/2.jpg')).status).toBe(404);
  });

  it.each([
    'cutright://app/assets/../../secret.txt',
    'cutright://app/assets/..%2F..%2Fsecret.txt',
    'cutright://app/assets/%2e%2e/secret.txt',
    'cutright://app/secret.txt',
    'cutright://app/assets/sub/index-abc.js',
    'cutright://app/bundles/b-1/pictures/r-2.png',
    'cutright://app/bundles/b-2/pictures/r-1.png',
    'cutright://other/index.html',
    'cutright://app/%ZZ',
  ])('refuses %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).not.toContain('not for pages');
    expect(response.headers.get('content-security-policy')).toBe(APP_CSP);
  });

  it('refuses other methods', async () => {
    expect((await get('cutright://app/index.html', 'POST')).status).toBe(405);
  });
});

describe("the app protocol over a real bundle store (main.ts's wiring)", () => {
  it("serves a sealed recording's frames and a step's picture; nothing of a bundle still being recorded", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-protocol-store-'));
    try {
      const store = await openBundleStore({ dataDir });
      const handler = createAppRequestHandler({
        rendererDir: path.join(dir, 'renderer'),
        picturePath: (bundleId, picture) => store.picturePath(bundleId, picture),
        framePath: (bundleId, frame) => store.framePath(bundleId, frame),
      });
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 9, 9, 0xff, 0xd9]);
      const consent = { sessionId: 's-e-1', appId: 'app.x', appName: 'X', agentName: 'a', requestedAt: 1, answeredAt: 2, answeredBy: 'test' };
      const sealed = await store.create(consent);
      await sealed.recording.recordFrame({ data: jpeg, at: 3, width: 2, height: 2 });
      await sealed.seal('complete', 'demo.end');
      const open = await store.create({ ...consent, sessionId: 's-e-2' });
      await open.recording.recordFrame({ data: jpeg, at: 3, width: 2, height: 2 });
      const url = (bundleId: string, file: string) => `cutright://app/${picturePath(bundleId, file)}`;
      const frame = await handler(new Request(url(sealed.bundleId, 'recording/1.jpg')));
      expect(frame.status).toBe(200);
      expect(Buffer.from(await frame.arrayBuffer())).toEqual(jpeg);
      expect((await handler(new Request(url(open.bundleId, 'recording/1.jpg')))).status).toBe(404);
      expect((await handler(new Request(url(sealed.bundleId, 'recording/index.ndjson')))).status).toBe(404);
      await open.seal('killed', 'kill control');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
