// The seal: manifest.json (every file's digest, the chain head, the end) and manifest.sig
// (Ed25519 over manifest.json's bytes).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './durable.js';
import { RECORDING_DIR } from './recording-format.js';
import {
  EVENTS_FILE, FORMAT, MANIFEST_FILE, PICTURES_DIR, SIGNATURE_FILE, parseEvents,
  type BundleEvent, type ConsentEvent, type EndEvent, type EndState,
} from './format.js';
import { signBytes, type SigningKey } from './signing.js';

export interface ManifestFile {
  /** Relative path inside the bundle folder, `/`-separated. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  bundleId: string;
  sessionId: string;
  app: { id: string; name: string };
  /** The name the agent gave for itself: a claim, not a verified identity. */
  agent: { name: string };
  startedAt: number;
  endedAt: number;
  end: { state: EndState; reason: string };
  /** Receipts recorded (acts that ran). */
  steps: number;
  /** Lines in events.ndjson. */
  events: number;
  /** SHA-256 hex of the last line of events.ndjson (without its newline). */
  chainHead: string;
  /** Every file of the bundle except manifest.json and manifest.sig, sorted by path. */
  files: ManifestFile[];
  signing: { algorithm: 'Ed25519'; fingerprint: string; publicKey: string };
}

/** The seal's own files: never listed in the manifest. */
export const SEAL_FILES: ReadonlySet<string> = new Set([MANIFEST_FILE, SIGNATURE_FILE]);
const SEAL_TMP_FILES = [`${MANIFEST_FILE}.tmp`, `${SIGNATURE_FILE}.tmp`];

export interface FolderListing {
  /** Regular files, relative `/`-separated paths, sorted. */
  files: string[];
  /** Entries a bundle may not hold: folders other than pictures/ and recording/, links, devices. */
  strays: { path: string; problem: string }[];
}

/** The folders a bundle may hold, one level deep. */
const BUNDLE_FOLDERS: ReadonlySet<string> = new Set([PICTURES_DIR, RECORDING_DIR]);

/** Lists a bundle folder: top-level files and the files in pictures/ and recording/. */
export async function listFolder(dir: string): Promise<FolderListing> {
  const files: string[] = [];
  const strays: FolderListing['strays'] = [];
  const visit = async (rel: string, depth: number): Promise<void> => {
    const entries = await readdir(rel ? join(dir, rel) : dir, { withFileTypes: true });
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isFile()) files.push(path);
      else if (entry.isDirectory() && depth === 0 && BUNDLE_FOLDERS.has(entry.name)) await visit(path, 1);
      else if (entry.isDirectory()) strays.push({ path: `${path}/`, problem: 'unlisted folder: a bundle holds only events.ndjson, pictures/, recording/ and its seal' });
      else strays.push({ path, problem: 'not a regular file (a link or a device): a bundle holds only regular files' });
    }
  };
  await visit('', 0);
  files.sort();
  strays.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, strays };
}

/** Size and SHA-256 of a file, streamed. Refuses links so a digest is always of the bundle's own bytes. */
export async function digestFile(path: string): Promise<{ size: number; sha256: string }> {
  const info = await lstat(path);
  if (!info.isFile()) throw new Error(`${path} is not a regular file`);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** The writer's own digest of a file when its size still matches (verify re-reads every byte anyway), else a fresh one. */
async function knownOrDigest(path: string, known: { size: number; sha256: string } | undefined): Promise<{ size: number; sha256: string }> {
  if (known) {
    const info = await lstat(path);
    if (info.isFile() && info.size === known.size) return { size: known.size, sha256: known.sha256 };
  }
  return digestFile(path);
}

export function manifestBytes(manifest: Manifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
}

/** The events of an ended bundle, or a clear Error why it cannot be sealed. */
export function endedEvents(data: Buffer, label: string): { events: BundleEvent[]; head: string; consent: ConsentEvent; end: EndEvent } {
  const parsed = parseEvents(data);
  if (parsed.problem) throw new Error(`cannot seal ${label}: ${EVENTS_FILE} line ${parsed.problem.line}: ${parsed.problem.message}`);
  if (parsed.tornTail) throw new Error(`cannot seal ${label}: ${EVENTS_FILE} ends with a partial line`);
  const consent = parsed.events[0];
  const end = parsed.events.at(-1);
  if (consent?.type !== 'consent') throw new Error(`cannot seal ${label}: ${EVENTS_FILE} has no consent record`);
  if (end?.type !== 'end') throw new Error(`cannot seal ${label}: ${EVENTS_FILE} has no end event`);
  return { events: parsed.events, head: parsed.head, consent, end };
}

/**
 * Seals an ended bundle: manifest.json then manifest.sig, each written to a .tmp, fsynced,
 * renamed into place and the folder fsynced. Until manifest.sig exists the bundle is not sealed.
 * `known` holds digests the writer computed as it wrote those files (the recording's frames): a
 * file of that size is not read again, so a long recording does not slow the seal.
 */
export async function writeSeal(
  dir: string,
  key: SigningKey,
  label: string,
  known: ReadonlyMap<string, { size: number; sha256: string }> = new Map(),
): Promise<Manifest> {
  for (const name of SEAL_TMP_FILES) {
    // Scratch files of an interrupted seal: ours, and not part of the bundle.
    await unlink(join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  const { events, head, consent, end } = endedEvents(await readFile(join(dir, EVENTS_FILE)), label);
  const listing = await listFolder(dir);
  const stray = listing.strays[0];
  if (stray) throw new Error(`cannot seal ${label}: ${stray.path}: ${stray.problem}`);
  // Hashed side by side: a session of a hundred acts has a hundred pictures, and sealing is on
  // the path from the kill control to a sealed bundle.
  const files: ManifestFile[] = await Promise.all(
    listing.files.filter((path) => !SEAL_FILES.has(path)).map(async (path) => ({ path, ...(await knownOrDigest(join(dir, path), known.get(path))) })),
  );
  const manifest: Manifest = {
    format: FORMAT,
    bundleId: consent.bundleId,
    sessionId: consent.sessionId,
    app: { id: consent.appId, name: consent.appName },
    agent: { name: consent.agentName },
    startedAt: consent.answeredAt,
    endedAt: end.at,
    end: { state: end.state, reason: end.reason },
    steps: events.filter((e) => e.type === 'receipt').length,
    events: events.length,
    chainHead: head,
    files,
    signing: { algorithm: 'Ed25519', fingerprint: key.fingerprint, publicKey: key.publicKeyPem },
  };
  const bytes = manifestBytes(manifest);
  await writeFileAtomic(join(dir, MANIFEST_FILE), bytes);
  await writeFileAtomic(join(dir, SIGNATURE_FILE), Buffer.from(`${signBytes(key, bytes).toString('base64')}\n`));
  return manifest;
}
