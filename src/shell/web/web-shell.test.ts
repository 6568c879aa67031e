// The web shell over real HTTP and a real WebSocket: the secret path, the Host and Origin
// checks, and the bridge carrying a real host's view and calls.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DemoClient } from '../../client/client.js';
import { FIXTURE_APP_ID } from '../../contract/fixture-id.js';
import { decodeLiveFrame, picturePath, type HostView, type LiveFrame } from '../../ui-protocol/index.js';
import { startHostCore, type HostCore } from '../../host/start-host.js';
import { createChromiumLauncher } from '../../targets/chromium-launcher.js';
import { startWebShell, type WebShell } from './web-shell.js';

let core: HostCore;
let shell: WebShell;
let socketPath: string;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-web-'));
  const rendererDir = path.join(dataDir, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>CutRight</title>');
  await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  socketPath = path.join(dataDir, 'run', 's.sock');
  core = await startHostCore({ dataDir, socketPath, fixtures: true, launcher: createChromiumLauncher(), answeredBy: 'test' });
  shell = await startWebShell({ host: core.host, bundles: core.bundles, rendererDir });
});

afterAll(async () => {
  await shell?.close();
  await core?.stop();
});

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

function connect(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

describe('web shell', () => {
  it('serves the page only under the secret, on 127.0.0.1, with a strict CSP and no referrer', async () => {
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/$/);
    const page = await get(shell.url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>CutRight</title>');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await get(new URL('assets/app.js', shell.url).href)).status).toBe(200);
    expect((await get(`${shell.origin}/`)).status).toBe(404);
    expect((await get(`${shell.origin}/wrong-secret/`)).status).toBe(404);
    expect((await get(`${shell.origin}/assets/app.js`)).status).toBe(404);
  });

  it('answers a missing or wrong secret with a page saying how to find the right address, never the secret', async () => {
    const secret = new URL(shell.url).pathname.split('/')[1]!;
    for (const url of [`${shell.origin}/`, `${shell.origin}/old-secret-from-an-earlier-start/`]) {
      const page = await get(url);
      expect(page.status).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('This is not the address of this CutRight host');
      expect(page.body).toContain('printed the address of the UI');
      expect(page.body).not.toContain(secret);
    }
  });

  it('refuses requests for another Host name (DNS rebinding)', async () => {
    expect((await get(shell.url, { host: 'evil.example:80' })).status).toBe(421);
  });

  it('refuses bridge and frames connections from another origin or without the secret', async () => {
    for (const name of ['bridge', 'frames']) {
      const socket = `${shell.url.replace('http:', 'ws:')}${name}`;
      await expect(connect(socket, 'http://evil.example')).rejects.toThrow(/403/);
      await expect(connect(socket)).rejects.toThrow(/403/);
      await expect(connect(`${shell.origin.replace('http:', 'ws:')}/nope/${name}`, shell.origin)).rejects.toThrow(/403/);
    }
  });

  it('sends the view at once and answers calls by id; bad calls get a clear error', async () => {
    const messages: Record<string, unknown>[] = [];
    // Listen before the socket opens: the host sends its view the moment the bridge connects.
    const ws = new WebSocket(`${shell.url.replace('http:', 'ws:')}bridge`, { origin: shell.origin });
    ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
    const next = () =>
      new Promise<Record<string, unknown>>((resolve) => {
        const take = () => (messages.length ? resolve(messages.shift()!) : setTimeout(take, 5));
        take();
      });
    expect(await next()).toMatchObject({ type: 'view', view: { demoMode: true, consent: null, live: [] } });
    await new Promise((resolve) => (ws.readyState === ws.OPEN ? resolve(null) : ws.once('open', resolve)));
    ws.send(JSON.stringify({ type: 'call', id: 1, call: 'getSettings', args: [] }));
    expect(await next()).toEqual({ type: 'reply', id: 1, ok: true, value: { demoMode: true, apps: [], deniedApps: [] } });
    ws.send(JSON.stringify({ type: 'call', id: 2, call: 'answerConsent', args: ['x', 'maybe'] }));
    expect(await next()).toEqual({ type: 'reply', id: 2, ok: false, error: { message: 'answerConsent: answer must be "allow" or "deny"' } });
    ws.send(JSON.stringify({ type: 'call', id: 3, call: 'rm -rf', args: [] }));
    expect(await next()).toMatchObject({ type: 'reply', id: 3, ok: false });
    ws.send(JSON.stringify({ type: 'call', id: 4, call: 'saveSettings', args: [{ demoMode: 'no' }] }));
    expect(await next()).toMatchObject({ type: 'reply', id: 4, ok: false, error: { message: expect.stringMatching(/settings/) } });
    ws.send('not json');
    ws.send(JSON.stringify({ type: 'call', id: 5, call: 'listBundles', args: [] }));
    expect(await next()).toEqual({ type: 'reply', id: 5, ok: true, value: [] });
    ws.close();
  });

  it("carries a live session's frames on the frames socket as binary messages, each a header and a JPEG; the bridge socket stays JSON", async () => {
    const frames: LiveFrame[] = [];
    let view: HostView | null = null;
    let binaryOnBridge = 0;
    const ws = new WebSocket(`${shell.url.replace('http:', 'ws:')}bridge`, { origin: shell.origin });
    ws.on('message', (data, isBinary) => {
      if (isBinary) binaryOnBridge += 1;
      else if ((JSON.parse(String(data)) as { type: string }).type === 'view') view = (JSON.parse(String(data)) as { view: HostView }).view;
    });
    const framesSocket = new WebSocket(`${shell.url.replace('http:', 'ws:')}frames`, { origin: shell.origin });
    framesSocket.on('message', (data, isBinary) => {
      if (isBinary) frames.push(decodeLiveFrame(new Uint8Array(data as Buffer)));
    });
    const until = async (ok: () => boolean, what: string) => {
      for (const deadline = Date.now() + 20_000; !ok(); await new Promise((r) => setTimeout(r, 10))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      }
    };
    const client = await DemoClient.connect(core.socket.socketPath);
    const request = client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'frames test' });
    await until(() => (view as HostView | null)?.consent != null, 'the consent prompt');
    await core.host.bridge.answerConsent((view as unknown as HostView).consent!.consentId, 'allow');
    const granted = await request;
    await until(() => frames.length > 0, 'a live frame');
    const frame = frames[0] as LiveFrame;
    expect(frame).toMatchObject({ type: 'frame', sessionId: granted.session, seq: 1, viewport: { width: 1280, height: 720 } });
    expect([...frame.data.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    await client.call('demo.end', { token: granted.token }).catch(async (error: unknown) => {
      // Still arming: stop it with the kill control instead.
      if ((error as { code?: string }).code !== 'not_armed') throw error;
      await core.host.kill(granted.session);
    });
    expect(binaryOnBridge).toBe(0);
    await client.close();
    ws.close();
    framesSocket.close();
  });

  it("serves a sealed bundle's recording frames at its picture paths, and no frame of a bundle still being recorded", async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const sealed = await core.bundles.create({ sessionId: 's-web-frames', appId: FIXTURE_APP_ID, appName: 'Demo Fixture', agentName: 'frames', requestedAt: 1, answeredAt: 2, answeredBy: 'test' });
    await sealed.recording.recordFrame({ data: jpeg, at: 3, width: 4, height: 4 });
    await sealed.seal('complete', 'demo.end');
    const open = await core.bundles.create({ sessionId: 's-web-frames-2', appId: FIXTURE_APP_ID, appName: 'Demo Fixture', agentName: 'frames', requestedAt: 1, answeredAt: 2, answeredBy: 'test' });
    await open.recording.recordFrame({ data: jpeg, at: 3, width: 4, height: 4 });
    const frame = await get(new URL(picturePath(sealed.bundleId, 'recording/1.jpg'), shell.url).href);
    expect(frame.status).toBe(200);
    expect(frame.headers['content-type']).toBe('image/jpeg');
    expect((await get(new URL(picturePath(open.bundleId, 'recording/1.jpg'), shell.url).href)).status).toBe(404);
    expect((await get(new URL(picturePath(sealed.bundleId, 'recording/2.jpg'), shell.url).href)).status).toBe(404);
    expect((await get(new URL(picturePath(sealed.bundleId, 'recording/index.ndjson'), shell.url).href)).status).toBe(404);
    await open.seal('killed', 'kill control');
  });

  it('carries Deny all waiting and Stop all to the host: every waiting request denied, every live session killed', async () => {
    const ws = await connect(`${shell.url.replace('http:', 'ws:')}bridge`, shell.origin);
    const views: Array<{ consent: { consentId: string } | null; consentQueue: number; live: Array<{ sessionId: string; phase: string }> }> = [];
    const replies = new Map<number, unknown>();
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; id?: number; view?: (typeof views)[number] };
      if (m.type === 'view') views.push(m.view!);
      else replies.set(m.id!, m);
    });
    const until = async <T>(get: () => T | undefined, what: string): Promise<T> => {
      for (let i = 0; i < 1000; i += 1) {
        const value = get();
        if (value !== undefined) return value;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    const call = async (id: number, name: string, args: unknown[] = []) => {
      ws.send(JSON.stringify({ type: 'call', id, call: name, args }));
      return until(() => replies.get(id), `the reply to ${name}`);
    };
    const client = await DemoClient.connect(socketPath);
    try {
      const first = client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'waiting 1' }).catch((e: { code: string }) => e.code);
      const second = client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'waiting 2' }).catch((e: { code: string }) => e.code);
      await until(() => (views.at(-1)?.consent && views.at(-1)!.consentQueue === 1 ? true : undefined), 'two waiting requests');
      expect(await call(10, 'denyAllWaiting')).toEqual({ type: 'reply', id: 10, ok: true, value: 2 });
      expect([await first, await second]).toEqual(['consent_denied', 'consent_denied']);

      const live = client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: 'live' });
      const prompt = await until(() => views.at(-1)?.consent ?? undefined, 'the consent prompt');
      await call(11, 'answerConsent', [prompt.consentId, 'allow']);
      const granted = await live;
      await until(() => (views.at(-1)?.live.some((s) => s.sessionId === granted.session) ? true : undefined), 'the live session');
      expect(await call(12, 'killAll')).toEqual({ type: 'reply', id: 12, ok: true, value: 1 });
      expect((await core.bundles.list()).find((b) => b.sessionId === granted.session)).toMatchObject({ state: 'killed', reason: 'kill control' });
      await expect(client.call('demo.snapshot', { token: granted.token })).rejects.toMatchObject({ code: 'session_killed' });
    } finally {
      await client.close();
      ws.close();
    }
  });
});
