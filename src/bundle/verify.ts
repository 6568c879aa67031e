// verifyBundle: is a sealed bundle exactly what was sealed? Names the first file that is not.
import type { KeyObject } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { EVENTS_FILE, FORMAT, MANIFEST_FILE, SIGNATURE_FILE, isBundleId, parseEvents } from './format.js';
import { SEAL_FILES, digestFile, listFolder, type Manifest } from './manifest.js';
import { ed25519PublicKey, fingerprintOf, publicKeyPath, verifyBytes } from './signing.js';
import { recordingProblem } from './verify-recording.js';

/** Where the key that checked the signature came from. */
export type KeySource =
  /** The caller passed the public key (e.g. the operator's published one). */
  | 'given'
  /** The installation's keys/bundle-signing.pub beside the bundles folder. */
  | 'installation'
  /** A key the caller named as trusted by its fingerprint (`--trust-key`). */
  | 'trusted';

export type VerifyResult =
  | { ok: true; fingerprint: string; keySource: KeySource }
  | { ok: false; file: string; problem: string };

export interface VerifyOptions {
  /** The public key (SPKI PEM) the bundle must be signed with. */
  publicKeyPem?: string;
  /**
   * Fingerprints (`sha256:<hex>`) of signing keys the caller trusts. Without a given key or an
   * installation key, a bundle signed by a key not named here fails: the key it carries proves
   * only that whoever held that key sealed it, which anyone can be.
   */
  trustKeys?: readonly string[];
}

const fail = (file: string, problem: string): VerifyResult => ({ ok: false, file, problem });
const HEX64 = /^[0-9a-f]{64}$/;
// A listed path is a file name at the top or in pictures/: never absolute, never `..`.
const LISTED_PATH = /^(?:(?:pictures|recording)\/)?(?!\.\.?$)[^/\\\0]+$/;

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Why `value` is not a manifest, or null. */
function manifestProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const m = value as Record<string, unknown>;
  if (m.format !== FORMAT) return `format is ${JSON.stringify(m.format)}, expected ${FORMAT}`;
  if (!isBundleId(m.bundleId)) return 'bundleId is not a bundle id';
  if (typeof m.sessionId !== 'string') return 'sessionId is not a string';
  const app = m.app as Record<string, unknown> | null;
  if (typeof app !== 'object' || app === null || typeof app.id !== 'string' || typeof app.name !== 'string') return 'app is not {id, name}';
  const agent = m.agent as Record<string, unknown> | null;
  if (typeof agent !== 'object' || agent === null || typeof agent.name !== 'string') return 'agent is not {name}';
  if (typeof m.startedAt !== 'number' || typeof m.endedAt !== 'number') return 'startedAt or endedAt is not a time';
  const end = m.end as Record<string, unknown> | null;
  if (typeof end !== 'object' || end === null || (end.state !== 'complete' && end.state !== 'killed') || typeof end.reason !== 'string') {
    return 'end is not {state: complete|killed, reason}';
  }
  if (!Number.isSafeInteger(m.steps) || !Number.isSafeInteger(m.events)) return 'steps or events is not a count';
  if (typeof m.chainHead !== 'string' || !HEX64.test(m.chainHead)) return 'chainHead is not a SHA-256 hex digest';
  if (!Array.isArray(m.files)) return 'files is not a list';
  const seen = new Set<string>();
  for (const entry of m.files as unknown[]) {
    const f = entry as Record<string, unknown> | null;
    if (typeof f !== 'object' || f === null || typeof f.path !== 'string' || !Number.isSafeInteger(f.size) || typeof f.sha256 !== 'string' || !HEX64.test(f.sha256)) {
      return 'files holds an entry that is not {path, size, sha256}';
    }
    if (!LISTED_PATH.test(f.path) || SEAL_FILES.has(f.path)) return `files lists a path a bundle cannot hold: ${JSON.stringify(f.path)}`;
    if (seen.has(f.path)) return `files lists ${f.path} twice`;
    seen.add(f.path);
  }
  if (!seen.has(EVENTS_FILE)) return `files does not list ${EVENTS_FILE}`;
  const signing = m.signing as Record<string, unknown> | null;
  if (typeof signing !== 'object' || signing === null || signing.algorithm !== 'Ed25519' || typeof signing.fingerprint !== 'string' || typeof signing.publicKey !== 'string') {
    return 'signing is not {algorithm: Ed25519, fingerprint, publicKey}';
  }
  return null;
}

/** The trusted key: the caller's, else the installation's when `dir` sits in <dataDir>/bundles/. */
async function trustedKey(dir: string, options: VerifyOptions): Promise<{ key: KeyObject; source: KeySource } | null> {
  if (options.publicKeyPem !== undefined) {
    try {
      return { key: ed25519PublicKey(options.publicKeyPem), source: 'given' };
    } catch (error) {
      throw new Error(`verifyBundle: publicKeyPem: ${(error as Error).message}`);
    }
  }
  const bundlesDir = dirname(resolve(dir));
  if (basename(bundlesDir) !== 'bundles') return null;
  const pem = await readOrNull(publicKeyPath(dirname(bundlesDir)));
  if (pem === null) return null;
  try {
    return { key: ed25519PublicKey(pem.toString('utf8')), source: 'installation' };
  } catch {
    return null; // an unreadable installation key is no evidence either way; fall back to the manifest's
  }
}

/**
 * Checks a sealed bundle folder: the signature over manifest.json, every listed file's size and
 * digest, that no file is unlisted, and the hash chain of events.ndjson up to the manifest's
 * head. The first failure names the file it found wrong.
 */
export async function verifyBundle(dir: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const manifestData = await readOrNull(join(dir, MANIFEST_FILE));
  if (manifestData === null) {
    const folder = await stat(dir).catch(() => null);
    if (folder === null || !folder.isDirectory()) return fail(dir, 'no such folder');
    // Only whether it is there: it may be anything, even a link to an endless device.
    if ((await lstat(join(dir, EVENTS_FILE)).catch(() => null)) === null) return fail(dir, `not a bundle folder: it has neither ${MANIFEST_FILE} nor ${EVENTS_FILE}`);
    return fail(MANIFEST_FILE, 'missing: the bundle is not sealed');
  }
  const sigData = await readOrNull(join(dir, SIGNATURE_FILE));
  if (sigData === null) return fail(SIGNATURE_FILE, 'missing: the bundle is not sealed');

  // 1. The signature, before trusting anything the manifest says.
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifestData.toString('utf8'));
  } catch (error) {
    return fail(MANIFEST_FILE, `not valid JSON (${(error as Error).message})`);
  }
  const shape = manifestProblem(parsed);
  if (shape) return fail(MANIFEST_FILE, shape);
  const manifest = parsed as Manifest;
  // A folder holding another bundle's record (a copy of B put in place of A) is not bundle A.
  const folderName = basename(resolve(dir));
  if (folderName !== manifest.bundleId) {
    return fail(MANIFEST_FILE, `is the record of bundle ${manifest.bundleId}, but its folder is named ${JSON.stringify(folderName)}: a bundle's folder must keep its bundle id as its name`);
  }
  let embedded: KeyObject;
  try {
    embedded = ed25519PublicKey(manifest.signing.publicKey);
  } catch (error) {
    return fail(MANIFEST_FILE, `signing.publicKey: ${(error as Error).message}`);
  }
  const fingerprint = fingerprintOf(embedded);
  if (fingerprint !== manifest.signing.fingerprint) return fail(MANIFEST_FILE, 'signing.fingerprint does not match signing.publicKey');
  const trusted = await trustedKey(dir, options);
  if (trusted && fingerprintOf(trusted.key) !== fingerprint) {
    return fail(SIGNATURE_FILE, `signed with key ${fingerprint}, not the ${trusted.source === 'given' ? 'given' : "installation's"} key ${fingerprintOf(trusted.key)}`);
  }
  const sigText = sigData.toString('utf8').trim();
  const signature = Buffer.from(sigText, 'base64');
  if (signature.length !== 64 || signature.toString('base64') !== sigText) return fail(SIGNATURE_FILE, 'not a base64 Ed25519 signature');
  if (!verifyBytes(embedded, manifestData, signature)) {
    return fail(MANIFEST_FILE, `does not match its signature in ${SIGNATURE_FILE}: one of the two was changed after sealing`);
  }

  // 2. The files: exactly the listed ones, each with its size and digest.
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  const listing = await listFolder(dir);
  const stray = listing.strays[0];
  if (stray) return fail(stray.path, stray.problem);
  const present = new Set(listing.files);
  for (const file of manifest.files) {
    if (!present.has(file.path)) return fail(file.path, `listed in ${MANIFEST_FILE} but missing`);
    const actual = await digestFile(join(dir, file.path));
    if (actual.size !== file.size) return fail(file.path, `is ${actual.size} bytes, ${MANIFEST_FILE} says ${file.size}`);
    if (actual.sha256 !== file.sha256) return fail(file.path, `content changed: SHA-256 ${actual.sha256}, ${MANIFEST_FILE} says ${file.sha256}`);
  }
  for (const path of listing.files) {
    if (!listed.has(path) && !SEAL_FILES.has(path)) return fail(path, `unlisted file: not in ${MANIFEST_FILE}`);
  }

  // 3. The events: an unbroken chain from the consent record to the end, matching the manifest.
  const parsedEvents = parseEvents(await readFile(join(dir, EVENTS_FILE)));
  if (parsedEvents.problem) return fail(EVENTS_FILE, `line ${parsedEvents.problem.line}: ${parsedEvents.problem.message}`);
  if (parsedEvents.tornTail) return fail(EVENTS_FILE, 'ends with a partial line');
  const events = parsedEvents.events;
  const consent = events[0];
  const end = events.at(-1);
  if (consent?.type !== 'consent') return fail(EVENTS_FILE, 'has no consent record');
  if (end?.type !== 'end') return fail(EVENTS_FILE, 'has no end event');
  if (parsedEvents.head !== manifest.chainHead) return fail(EVENTS_FILE, `chain head ${parsedEvents.head} does not match ${MANIFEST_FILE}'s ${manifest.chainHead}`);
  const mismatches: [string, unknown, unknown][] = [
    ['bundleId', consent.bundleId, manifest.bundleId],
    ['sessionId', consent.sessionId, manifest.sessionId],
    ['app.id', consent.appId, manifest.app.id],
    ['app.name', consent.appName, manifest.app.name],
    ['agent.name', consent.agentName, manifest.agent.name],
    ['startedAt', consent.answeredAt, manifest.startedAt],
    ['endedAt', end.at, manifest.endedAt],
    ['end.state', end.state, manifest.end.state],
    ['end.reason', end.reason, manifest.end.reason],
    ['steps', events.filter((e) => e.type === 'receipt').length, manifest.steps],
    ['events', events.length, manifest.events],
  ];
  for (const [field, fromEvents, fromManifest] of mismatches) {
    if (fromEvents !== fromManifest) return fail(MANIFEST_FILE, `${field} is ${JSON.stringify(fromManifest)} but ${EVENTS_FILE} says ${JSON.stringify(fromEvents)}`);
  }
  for (const event of events) {
    if (event.type !== 'picture') continue;
    const file = listed.get(event.file);
    if (!file) return fail(event.file, `recorded in ${EVENTS_FILE} (seq ${event.seq}) but not in ${MANIFEST_FILE}`);
    if (file.sha256 !== event.sha256 || file.size !== event.size) return fail(event.file, `differs from its picture event in ${EVENTS_FILE} (seq ${event.seq})`);
  }
  const recording = await recordingProblem(dir, end, listed);
  if (recording) return fail(recording.file, recording.problem);
  if (trusted) return { ok: true, fingerprint, keySource: trusted.source };
  if (options.trustKeys?.includes(fingerprint)) return { ok: true, fingerprint, keySource: 'trusted' };
  return fail(
    SIGNATURE_FILE,
    `signed by key ${fingerprint}, which this installation does not know: its files match that key's seal, but nothing shows who sealed it. If you know it is the signer's key, verify with --trust-key ${fingerprint}`,
  );
}
