// The installation's bundle-signing key: Ed25519, created on first use in <dataDir>/keys/.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsyncDir, writeFileAtomic, writeNewFile } from './durable.js';
import { sha256Hex } from './format.js';

export const KEYS_DIR = 'keys';
export const PRIVATE_KEY_FILE = 'bundle-signing.key';
export const PUBLIC_KEY_FILE = 'bundle-signing.pub';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM of the public key, as stored in manifests and in bundle-signing.pub. */
  publicKeyPem: string;
  /** `sha256:<hex>` of the public key's SPKI DER bytes. */
  fingerprint: string;
}

/** `sha256:<hex of the SPKI DER>` of a public key. */
export function fingerprintOf(publicKey: KeyObject): string {
  return `sha256:${sha256Hex(publicKey.export({ type: 'spki', format: 'der' }))}`;
}

/** Parses a PEM public key and checks it is Ed25519; throws a clear Error otherwise. */
export function ed25519PublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new Error(`not a PEM public key: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the key is ${key.asymmetricKeyType}, not Ed25519`);
  return key;
}

export function signBytes(key: SigningKey, data: Buffer): Buffer {
  return sign(null, data, key.privateKey);
}

export function verifyBytes(publicKey: KeyObject, data: Buffer, signature: Buffer): boolean {
  return verify(null, data, publicKey, signature);
}

/** Path of the installation's public key file for a data folder. */
export function publicKeyPath(dataDir: string): string {
  return join(dataDir, KEYS_DIR, PUBLIC_KEY_FILE);
}

/**
 * Loads the installation's signing key, creating it when there is none. The private key file is
 * PKCS8 PEM, mode 0600, in a 0700 folder; the public key is written beside it (SPKI PEM).
 */
export async function loadOrCreateSigningKey(dataDir: string): Promise<SigningKey> {
  const keysDir = join(dataDir, KEYS_DIR);
  const keyPath = join(keysDir, PRIVATE_KEY_FILE);
  const created = await mkdir(keysDir, { recursive: true, mode: 0o700 });
  if (created) await fsyncDir(dirname(keysDir));
  // The folder may predate us with looser rights; the key must stay the user's alone.
  if (((await stat(keysDir)).mode & 0o077) !== 0) await chmod(keysDir, 0o700);

  let pem = await readFile(keyPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (pem === null) {
    const { privateKey } = generateKeyPairSync('ed25519');
    const fresh = Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' }));
    // Write under a private name, then link: link never replaces, so two stores racing on one
    // data folder end up with the same key (the first link wins, the other reads it).
    const tmp = `${keyPath}.${randomBytes(6).toString('hex')}.tmp`;
    await writeNewFile(tmp, fresh, 0o600);
    try {
      await link(tmp, keyPath).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    } finally {
      await unlink(tmp);
    }
    await fsyncDir(keysDir);
    pem = await readFile(keyPath, 'utf8');
  }
  if (((await stat(keyPath)).mode & 0o077) !== 0) await chmod(keyPath, 0o600);

  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`${keyPath} is not a PEM private key: ${(error as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${keyPath} holds a ${privateKey.asymmetricKeyType} key, not Ed25519`);
  }
  const publicKey = createPublicKey(privateKey);
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const pubPath = join(keysDir, PUBLIC_KEY_FILE);
  const storedPub = await readFile(pubPath, 'utf8').catch(() => null);
  if (storedPub !== publicKeyPem) await writeFileAtomic(pubPath, Buffer.from(publicKeyPem), 0o644);
  return { privateKey, publicKey, publicKeyPem, fingerprint: fingerprintOf(publicKey) };
}
