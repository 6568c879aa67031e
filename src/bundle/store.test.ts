import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportBundleHtml, verifyBundle, type BundleStore } from './index.js';
import { CONSENT, fakeJpeg, freshStore, openStore, readEvents, recordSession } from './bundle.test-support.js';

let dataDir: string;
let cleanup: () => Promise<void>;
let store: BundleStore;

beforeEach(async () => {
  ({ dataDir, cleanup, store } = await freshStore());
});
afterEach(() => cleanup());


describe('bundle store: create, record, seal, verify', () => {
  it('writes the consent record, calls, receipts and pictures as a hash chain, seals and verifies', async () => {
    const bundle = await recordSession(store);
    expect(bundle.bundleId).toMatch(/^b-\d{8}T\d{9}Z-[0-9a-f]{16}$/);
    const dir = join(store.bundlesDir, bundle.bundleId);

    const open = await store.get(bundle.bundleId);
    expect(open.summary.state).toBe('open');
    expect(open.summary.steps).toBe(2);
    expect(bundle.sealed).toBe(false);

    await bundle.seal('complete', 'demo.end');
    expect(bundle.sealed).toBe(true);
    expect(await verifyBundle(dir)).toMatchObject({ ok: true, keySource: 'installation' });

    const events = await readEvents(dir);
    expect(events.map((e) => e.type)).toEqual(['consent', 'call', 'receipt', 'picture', 'call', 'receipt', 'picture', 'call', 'end']);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events[0]).toMatchObject({ ...CONSENT, answer: 'allow', bundleId: bundle.bundleId, prev: '0'.repeat(64) });
    expect(events[7]).toMatchObject({ method: 'demo.act', ok: false, code: 'target_blocked' });
    expect(events[8]).toMatchObject({ state: 'complete', reason: 'demo.end' });
    expect(await readdir(join(dir, 'pictures'))).toEqual(['1-r-click1.jpg', '2-r-type2.jpg']);

    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      bundleId: bundle.bundleId, sessionId: CONSENT.sessionId, app: { id: CONSENT.appId, name: CONSENT.appName },
      agent: { name: CONSENT.agentName }, startedAt: CONSENT.answeredAt, end: { state: 'complete', reason: 'demo.end' }, steps: 2, events: 9,
    });
    expect((manifest.files as { path: string }[]).map((f) => f.path)).toEqual(['events.ndjson', 'pictures/1-r-click1.jpg', 'pictures/2-r-type2.jpg', 'recording/index.ndjson']);
    expect((manifest.signing as { fingerprint: string }).fingerprint).toBe(await store.signingKeyFingerprint());

    const detail = await store.get(bundle.bundleId);
    expect(detail.summary).toMatchObject({ state: 'complete', reason: 'demo.end', steps: 2, startedAt: CONSENT.answeredAt });
    expect(detail.consent).toEqual({ agentName: 'test agent', appId: CONSENT.appId, appName: 'Demo Fixture', answer: 'allow', answeredBy: CONSENT.answeredBy, requestedAt: CONSENT.requestedAt, answeredAt: CONSENT.answeredAt, requester: CONSENT.requester });
    expect(detail.steps).toMatchObject([
      { index: 0, receiptId: 'r-click1', op: 'click', ref: 'e1', role: 'button', label: 'Submit', picture: 'pictures/1-r-click1.jpg' },
      { index: 1, receiptId: 'r-type2', op: 'type', text: 'Ada <b>&</b>', picture: 'pictures/2-r-type2.jpg' },
    ]);
  });

  it('never writes a token or a field value, only the named fields', async () => {
    const bundle = await store.create(CONSENT);
    await bundle.recordCall({ method: 'demo.act', ok: true, token: 'secret-token' } as never);
    await bundle.recordReceipt({ receiptId: 'r-1', op: 'click', ref: 'e1', role: 'button', label: 'Go', value: 'hunter2' } as never);
    const text = await readFile(join(store.bundlesDir, bundle.bundleId, 'events.ndjson'), 'utf8');
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('"value"');
  });

  it('lists bundles newest first with their state', async () => {
    let clock = 1_700_000_000_000;
    const timed = await openStore(dataDir, () => clock);
    const first = await timed.create({ ...CONSENT, sessionId: 's-1', answeredAt: clock });
    clock += 1000;
    const second = await timed.create({ ...CONSENT, sessionId: 's-2', answeredAt: clock });
    await first.seal('killed', 'kill control');
    const list = await timed.list();
    expect(list.map((b) => [b.bundleId, b.state, b.reason])).toEqual([
      [second.bundleId, 'open', null],
      [first.bundleId, 'killed', 'kill control'],
    ]);
    expect(first.bundleId < second.bundleId).toBe(true); // ids sort by creation time
  });

  it('seal is idempotent: the first seal wins, later calls change nothing', async () => {
    const bundle = await recordSession(store);
    const dir = join(store.bundlesDir, bundle.bundleId);
    await Promise.all([bundle.seal('killed', 'kill control'), bundle.seal('complete', 'demo.end')]);
    const manifest = await readFile(join(dir, 'manifest.json'));
    await bundle.seal('complete', 'demo.end');
    expect(await readFile(join(dir, 'manifest.json'))).toEqual(manifest);
    expect((await store.get(bundle.bundleId)).summary).toMatchObject({ state: 'killed', reason: 'kill control' });
    expect((await readEvents(dir)).filter((e) => e.type === 'end')).toHaveLength(1);
    await expect(bundle.recordCall({ method: 'demo.act', ok: true })).rejects.toThrow(/has ended \(killed: kill control\)/);
  });

  it('serializes concurrent records in call order', async () => {
    const bundle = await store.create(CONSENT);
    await Promise.all(Array.from({ length: 20 }, (_, i) => bundle.recordCall({ method: `demo.m${i}`, ok: true })));
    const events = await readEvents(join(store.bundlesDir, bundle.bundleId));
    expect(events.slice(1).map((e) => e.method)).toEqual(Array.from({ length: 20 }, (_, i) => `demo.m${i}`));
    await bundle.seal('complete', 'demo.end');
    expect((await verifyBundle(join(store.bundlesDir, bundle.bundleId))).ok).toBe(true);
  });

  it('refuses bad input with errors naming the field', async () => {
    await expect(store.create({ ...CONSENT, sessionId: '' })).rejects.toThrow(/sessionId must be a non-empty string/);
    await expect(store.create({ ...CONSENT, answeredAt: Number.NaN })).rejects.toThrow(/answeredAt must be a time/);
    const bundle = await store.create(CONSENT);
    await expect(bundle.recordCall({ method: 'demo.act', ok: false })).rejects.toThrow(/code \(required when ok is false\)/);
    await expect(bundle.recordReceipt({ receiptId: '../x', op: 'click', ref: 'e', role: 'r', label: 'l' })).rejects.toThrow(/receiptId must match/);
    await expect(bundle.recordPicture('r-none', { mime: 'image/jpeg', data: fakeJpeg() })).rejects.toThrow(/receipt r-none is not recorded/);
    await bundle.recordReceipt({ receiptId: 'r-1', op: 'click', ref: 'e', role: 'r', label: 'l' });
    await expect(bundle.recordReceipt({ receiptId: 'r-1', op: 'click', ref: 'e', role: 'r', label: 'l' })).rejects.toThrow(/already recorded/);
    await expect(bundle.recordPicture('r-1', { mime: 'image/png', data: fakeJpeg() })).rejects.toThrow(/mime must be image\/jpeg/);
    await expect(bundle.recordPicture('r-1', { mime: 'image/jpeg', data: Buffer.from('not a jpeg') })).rejects.toThrow(/not a JPEG/);
    await expect(bundle.seal('done' as never, 'x')).rejects.toThrow(/state must be complete or killed/);
    await expect(bundle.seal('complete', '')).rejects.toThrow(/reason must be a non-empty string/);
    // None of the refused records reached the file: the bundle still seals and verifies.
    await bundle.seal('complete', 'demo.end');
    expect((await verifyBundle(join(store.bundlesDir, bundle.bundleId))).ok).toBe(true);
  });

  it('keeps who asked in the consent record; an older record without it reads as not recorded', async () => {
    const bundle = await store.create(CONSENT);
    const [consent] = await readEvents(join(store.bundlesDir, bundle.bundleId));
    expect(consent).toMatchObject({ type: 'consent', requester: CONSENT.requester });
    expect((await store.get(bundle.bundleId)).consent.requester).toEqual(CONSENT.requester);
    const { requester: _requester, ...older } = CONSENT;
    const old = await store.create({ ...older, sessionId: 's-older' });
    expect((await store.get(old.bundleId)).consent.requester).toBeNull();
    await expect(store.create({ ...CONSENT, requester: { ...CONSENT.requester, pid: -1 } })).rejects.toThrow(/consent.requester.pid is not a pid/);
    await expect(store.create({ ...CONSENT, requester: { ...CONSENT.requester, sharedWith: 0.5 } })).rejects.toThrow(/sharedWith is not a count/);
  });

  it('a sealed bundle whose requester was changed fails verify, naming the events file', async () => {
    const bundle = await store.create(CONSENT);
    await bundle.seal('complete', 'demo.end');
    const dir = join(store.bundlesDir, bundle.bundleId);
    const file = join(dir, 'events.ndjson');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"pid":4242', '"pid":4243'));
    const result = await verifyBundle(dir);
    expect(result).toMatchObject({ ok: false, file: 'events.ndjson' });
  });

  it('get throws clear errors for invalid and unknown ids', async () => {
    await expect(store.get('../../etc')).rejects.toThrow(/invalid bundle id "..\/..\/etc"/);
    await expect(store.get('b-20250101T000000000Z-0123456789abcdef')).rejects.toThrow(/unknown bundle b-20250101T000000000Z-0123456789abcdef/);
  });

  it('picturePath gives pictures of the bundle and refuses anything else', async () => {
    const bundle = await recordSession(store);
    const id = bundle.bundleId;
    expect(store.picturePath(id, 'pictures/1-r-click1.jpg')).toBe(join(store.bundlesDir, id, 'pictures/1-r-click1.jpg'));
    for (const name of ['../events.ndjson', 'pictures/../events.ndjson', 'pictures/../../x.jpg', 'events.ndjson', '/etc/passwd', 'pictures/9-r-none.jpg', 'pictures/1-r-click1.jpg/..', '1-r-click1.jpg']) {
      expect(store.picturePath(id, name), name).toBeNull();
    }
    expect(store.picturePath('..', 'pictures/1-r-click1.jpg')).toBeNull();
    expect(store.picturePath(`${id}/..`, 'pictures/1-r-click1.jpg')).toBeNull();
  });

  it('creates the signing key on first use: PKCS8 PEM, 0600, in a 0700 folder, with its public key', async () => {
    const bundle = await store.create(CONSENT);
    await bundle.seal('complete', 'demo.end');
    const keys = join(dataDir, 'keys');
    expect((await stat(keys)).mode & 0o777).toBe(0o700);
    expect((await stat(join(keys, 'bundle-signing.key'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(keys, 'bundle-signing.key'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const pub = await readFile(join(keys, 'bundle-signing.pub'), 'utf8');
    expect(pub).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    // A second store on the same folder uses the same key.
    const again = await openStore(dataDir);
    expect(await again.signingKeyFingerprint()).toBe(await store.signingKeyFingerprint());
    expect((await stat(join(dataDir, 'bundles'))).mode & 0o777).toBe(0o700);
  });

  it('exports one self-contained HTML page: consent, steps with inlined pictures, end; text escaped', async () => {
    const bundle = await recordSession(store);
    await bundle.seal('killed', 'target closed');
    const dir = join(store.bundlesDir, bundle.bundleId);
    const html = await exportBundleHtml(dir);
    expect(html).toContain('test agent');
    expect(html).toContain('local user via web shell');
    expect(html).toContain('/usr/bin/agent &lt;x&gt; (pid 4242), running as user mallory, not the person&#39;s own, connection shared with 1 other process');
    expect(html).toContain('Submit');
    expect(html).toContain('Ada &lt;b&gt;&amp;&lt;/b&gt;');
    expect(html).not.toContain('<b>&</b>');
    expect(html).toContain('target closed');
    expect(html).toContain('Sealed and intact');
    // A step with its place: an SVG with the picture once (the whole frame reuses it), the outline and the marker.
    const picture = await readFile(join(dir, 'pictures/1-r-click1.jpg'));
    expect(html.split(picture.toString('base64'))).toHaveLength(2);
    expect(html).toContain(`<image id="shot-1" href="data:image/jpeg;base64,${picture.toString('base64')}"`);
    expect(html).toContain('<use href="#shot-1"/>');
    expect(html).toMatch(/<rect x="\d+" y="\d+" width="\d+" height="\d+" rx="\d+" fill="none" stroke="#ff6a00"/);
    expect(html).toContain('Click <strong>Submit</strong>');
    // A step without: a plain picture.
    const typed = await readFile(join(dir, 'pictures/2-r-type2.jpg'));
    expect(html).toContain(`src="data:image/jpeg;base64,${typed.toString('base64')}"`);
    expect(html.match(/<img /g)).toHaveLength(1);
    // The demo first, the record below.
    expect(html.indexOf('<h2 id="steps">')).toBeLessThan(html.indexOf('<h2 id="record">'));
    expect(html).not.toMatch(/(src|href)="(?!data:|#shot-)/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script/i);
  });
});

describe('deleting a bundle', () => {
  it('removes a sealed bundle from disk and the list; refuses one still being recorded', async () => {
    const sealed = await recordSession(store);
    await sealed.seal('complete', 'demo.end');
    const open = await store.create(CONSENT);
    await expect(store.delete(open.bundleId)).rejects.toThrow(/still being recorded: stop or end its session first/);
    await store.delete(sealed.bundleId);
    expect((await store.list()).map((b) => b.bundleId)).toEqual([open.bundleId]);
    expect(await readdir(store.bundlesDir)).toEqual([open.bundleId]);
    await expect(store.delete(sealed.bundleId)).rejects.toThrow(/unknown bundle/);
    await expect(store.delete('../keys')).rejects.toThrow(/invalid bundle id/);
  });

  it('finishes a delete a crash cut off, at the next start', async () => {
    const sealed = await recordSession(store);
    await sealed.seal('complete', 'demo.end');
    const { rename } = await import('node:fs/promises');
    await rename(join(store.bundlesDir, sealed.bundleId), join(store.bundlesDir, `.deleting-${sealed.bundleId}`));
    const again = await openStore(dataDir);
    await again.recoverUnsealed();
    expect(await readdir(again.bundlesDir)).toEqual([]);
  });
});
