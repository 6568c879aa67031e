import { generateKeyPairSync, sign } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyBundle, type BundleStore } from './index.js';
import { openStore, recordSession, tempDataDir } from './bundle.test-support.js';

let cleanup: () => Promise<void>;
let store: BundleStore;
let dir: string;

beforeEach(async () => {
  let dataDir: string;
  ({ dataDir, cleanup } = await tempDataDir());
  store = await openStore(dataDir);
  const bundle = await recordSession(store);
  await bundle.seal('complete', 'demo.end');
  dir = join(store.bundlesDir, bundle.bundleId);
  expect(await verifyBundle(dir)).toMatchObject({ ok: true });
});
afterEach(() => cleanup());

async function flipByte(path: string, at: (size: number) => number): Promise<void> {
  const data = await readFile(path);
  const i = at(data.length);
  data[i] = data[i]! ^ 0x01;
  await writeFile(path, data);
}

async function expectFailure(file: string, problem?: RegExp): Promise<void> {
  const result = await verifyBundle(dir);
  expect(result).toMatchObject({ ok: false, file });
  if (problem && !result.ok) expect(result.problem).toMatch(problem);
}

describe('verifyBundle names the file of any change', () => {
  it('a changed byte in an event', async () => {
    const path = join(dir, 'events.ndjson');
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"label":"Submit"', '"label":"Submjt"'));
    await expectFailure('events.ndjson', /content changed/);
  });

  it('a changed byte in a picture', async () => {
    await flipByte(join(dir, 'pictures/2-r-type2.jpg'), (n) => n >> 1);
    await expectFailure('pictures/2-r-type2.jpg', /content changed/);
  });

  it('a changed byte in the manifest', async () => {
    const path = join(dir, 'manifest.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"steps": 2', '"steps": 1'));
    await expectFailure('manifest.json', /does not match its signature/);
  });

  it('a changed signature', async () => {
    const path = join(dir, 'manifest.sig');
    const sig = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
    sig[5] = sig[5]! ^ 0x01;
    await writeFile(path, `${sig.toString('base64')}\n`);
    await expectFailure('manifest.json', /does not match its signature in manifest.sig/);
  });

  it('an added file, at the top or among the pictures', async () => {
    await writeFile(join(dir, 'notes.txt'), 'hello');
    await expectFailure('notes.txt', /unlisted file/);
    await unlink(join(dir, 'notes.txt'));
    await writeFile(join(dir, 'pictures/3-r-extra.jpg'), 'x');
    await expectFailure('pictures/3-r-extra.jpg', /unlisted file/);
  });

  it('an added folder or link', async () => {
    await mkdir(join(dir, 'more'));
    await expectFailure('more/', /unlisted folder/);
    await rename(join(dir, 'more'), join(dir, 'more2'));
    await unlink(join(dir, 'pictures/1-r-click1.jpg'));
    await symlink('/etc/hostname', join(dir, 'pictures/1-r-click1.jpg'));
    await expectFailure('more2/', /unlisted folder/);
  });

  it('a picture replaced by a link', async () => {
    await unlink(join(dir, 'pictures/1-r-click1.jpg'));
    await symlink('/etc/hostname', join(dir, 'pictures/1-r-click1.jpg'));
    await expectFailure('pictures/1-r-click1.jpg', /not a regular file/);
  });

  it('a removed file', async () => {
    await unlink(join(dir, 'pictures/1-r-click1.jpg'));
    await expectFailure('pictures/1-r-click1.jpg', /listed in manifest.json but missing/);
  });

  it('truncated events', async () => {
    const path = join(dir, 'events.ndjson');
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1));
    await expectFailure('events.ndjson', /bytes, manifest.json says/);
  });

  it('reordered lines', async () => {
    const path = join(dir, 'events.ndjson');
    const rows = (await readFile(path, 'utf8')).trimEnd().split('\n');
    [rows[1], rows[4]] = [rows[4]!, rows[1]!];
    await writeFile(path, `${rows.join('\n')}\n`);
    await expectFailure('events.ndjson', /content changed/);
  });

  it('an appended line', async () => {
    await appendFile(join(dir, 'events.ndjson'), '{"seq":9}\n');
    await expectFailure('events.ndjson');
  });

  it('an edited event under a re-signed manifest still breaks the hash chain', async () => {
    // Someone holding the installation key fixes the digests and re-signs: the chain still tells.
    const eventsPath = join(dir, 'events.ndjson');
    const edited = (await readFile(eventsPath, 'utf8')).replace('"label":"Submit"', '"label":"Cancel"');
    await writeFile(eventsPath, edited);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { files: { path: string; size: number; sha256: string }[] };
    const { createHash, createPrivateKey } = await import('node:crypto');
    const entry = manifest.files.find((f) => f.path === 'events.ndjson')!;
    entry.size = Buffer.byteLength(edited);
    entry.sha256 = createHash('sha256').update(edited).digest('hex');
    const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const key = createPrivateKey(await readFile(join(store.bundlesDir, '..', 'keys', 'bundle-signing.key'), 'utf8'));
    await writeFile(join(dir, 'manifest.json'), bytes);
    await writeFile(join(dir, 'manifest.sig'), `${sign(null, bytes, key).toString('base64')}\n`);
    await expectFailure('events.ndjson', /line 4: prev does not match the hash of the line before it/);
  });

  it('a missing seal', async () => {
    await unlink(join(dir, 'manifest.sig'));
    await expectFailure('manifest.sig', /not sealed/);
    await unlink(join(dir, 'manifest.json'));
    await expectFailure('manifest.json', /not sealed/);
  });

  it('a manifest re-signed with another key is caught by the trusted key', async () => {
    // A forger who cannot read the installation's private key signs with their own and embeds
    // its public key. Only a key the verifier already trusts can tell.
    const eventsPath = join(dir, 'events.ndjson');
    await truncate(eventsPath, 0);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { signing: { publicKey: string; fingerprint: string } };
    const forger = generateKeyPairSync('ed25519');
    const pem = forger.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    manifest.signing.publicKey = pem;
    const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(dir, 'manifest.json'), bytes);
    await writeFile(join(dir, 'manifest.sig'), sign(null, bytes, forger.privateKey).toString('base64'));
    // The fingerprint no longer matches the embedded key...
    await expectFailure('manifest.json', /fingerprint does not match/);
    // ...and with the fingerprint fixed too, the installation's key catches it.
    const { fingerprintOf } = await import('./signing.js');
    manifest.signing.fingerprint = fingerprintOf(forger.publicKey);
    const fixed = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(dir, 'manifest.json'), fixed);
    await writeFile(join(dir, 'manifest.sig'), sign(null, fixed, forger.privateKey).toString('base64'));
    await expectFailure('manifest.sig', /not the installation's key/);
    const installationPem = await readFile(join(store.bundlesDir, '..', 'keys', 'bundle-signing.pub'), 'utf8');
    expect(await verifyBundle(dir, { publicKeyPem: installationPem })).toMatchObject({ ok: false, file: 'manifest.sig', problem: expect.stringMatching(/not the given key/) });
    expect(await verifyBundle(dir, { publicKeyPem: pem })).toMatchObject({ ok: false, file: 'events.ndjson' });
  });

  it('reports where the key came from when the bundle is intact', async () => {
    const installationPem = await readFile(join(store.bundlesDir, '..', 'keys', 'bundle-signing.pub'), 'utf8');
    expect(await verifyBundle(dir, { publicKeyPem: installationPem })).toMatchObject({ ok: true, keySource: 'given' });
    expect(await verifyBundle(dir)).toMatchObject({ ok: true, keySource: 'installation' });
    await expect(verifyBundle(dir, { publicKeyPem: 'nope' })).rejects.toThrow(/publicKeyPem: not a PEM public key/);
  });

  it('a bundle copied out of its data folder fails on its unknown key unless the key is named as trusted', async () => {
    const { cp } = await import('node:fs/promises');
    const { basename } = await import('node:path');
    const elsewhere = join(store.bundlesDir, '..', 'copy', basename(dir));
    await cp(dir, elsewhere, { recursive: true });
    const unknown = await verifyBundle(elsewhere);
    expect(unknown).toMatchObject({ ok: false, file: 'manifest.sig', problem: expect.stringMatching(/^signed by key sha256:[0-9a-f]+, which this installation does not know: .* --trust-key sha256:/) });
    const fingerprint = /key (sha256:[0-9a-f]+)/.exec(unknown.ok ? '' : unknown.problem)![1]!;
    expect(await verifyBundle(elsewhere, { trustKeys: ['sha256:' + '0'.repeat(64)] })).toMatchObject({ ok: false, file: 'manifest.sig' });
    expect(await verifyBundle(elsewhere, { trustKeys: [fingerprint] })).toMatchObject({ ok: true, fingerprint, keySource: 'trusted' });
  });

  it("a folder holding another bundle's record is not that bundle", async () => {
    // Bundle B copied over bundle A's folder: every file is B's own, sealed and signed by this installation.
    const other = await recordSession(store);
    await other.seal('killed', 'kill control');
    const { cp, rm } = await import('node:fs/promises');
    await rm(dir, { recursive: true });
    await cp(join(store.bundlesDir, other.bundleId), dir, { recursive: true });
    await expectFailure('manifest.json', new RegExp(`is the record of bundle ${other.bundleId}, but its folder is named "b-`));
  });

  it('a missing folder, or a folder that is not a bundle, says so rather than "not sealed"', async () => {
    const missing = join(store.bundlesDir, 'b-20990101T000000000Z-0000000000000000');
    expect(await verifyBundle(missing)).toEqual({ ok: false, file: missing, problem: 'no such folder' });
    const empty = join(store.bundlesDir, '..', 'empty');
    await mkdir(empty);
    expect(await verifyBundle(empty)).toMatchObject({ ok: false, file: empty, problem: expect.stringMatching(/^not a bundle folder/) });
  });
});
