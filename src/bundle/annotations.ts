// The person's edits to a sealed bundle: annotations.json beside the sealed record, never in
// it. The manifest does not list it, so the original stays verifiable as it was sealed; the
// file is signed with the same key as the seal and names the manifest it annotates (by its
// SHA-256), so it cannot be moved onto another bundle or changed unseen, and verify reports it
// as an edit. One file holding both the edits and their signature: it is replaced atomically.
import { rename, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir, writeNewFile } from './durable.js';
import { MANIFEST_FILE, RECEIPT_ID_PATTERN, sha256Hex } from './format.js';
import { captionProblem } from './presentation.js';
import { ed25519PublicKey, fingerprintOf, signBytes, verifyBytes, type SigningKey } from './signing.js';

export const ANNOTATIONS_FILE = 'annotations.json';
export const ANNOTATIONS_FORMAT = 'cutright-annotations/1';

export interface CaptionEdit {
  /** The caption the person wrote (`**…**` is bold). */
  text: string;
  at: number;
}

/** What is signed: the edits and what they annotate. */
export interface Annotations {
  format: typeof ANNOTATIONS_FORMAT;
  bundleId: string;
  /** SHA-256 of the manifest.json bytes this file annotates. */
  manifestSha256: string;
  updatedAt: number;
  /** Edited captions by receipt id; a step not named keeps its caption from the receipt. */
  captions: Record<string, CaptionEdit>;
  signing: { algorithm: 'Ed25519'; fingerprint: string; publicKey: string };
}

/** The file: the signed edits and the base64 Ed25519 signature over `JSON.stringify(annotations)`. */
interface AnnotationsFile {
  annotations: Annotations;
  signature: string;
}

export type AnnotationsRead =
  | { state: 'none' }
  | { state: 'ok'; annotations: Annotations }
  | { state: 'bad'; problem: string };

const HEX64 = /^[0-9a-f]{64}$/;

function shapeProblem(value: unknown, bundleId: string): string | null {
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  const file = value as Partial<AnnotationsFile>;
  const a = file.annotations as Partial<Annotations> | undefined;
  if (typeof file.signature !== 'string' || typeof a !== 'object' || a === null) return 'not {annotations, signature}';
  if (a.format !== ANNOTATIONS_FORMAT) return `format is ${JSON.stringify(a.format)}, expected ${ANNOTATIONS_FORMAT}`;
  if (a.bundleId !== bundleId) return `annotates bundle ${JSON.stringify(a.bundleId)}, not this one (${bundleId})`;
  if (typeof a.manifestSha256 !== 'string' || !HEX64.test(a.manifestSha256)) return 'manifestSha256 is not a SHA-256 hex digest';
  if (typeof a.updatedAt !== 'number' || !Number.isFinite(a.updatedAt)) return 'updatedAt is not a time';
  if (typeof a.captions !== 'object' || a.captions === null || Array.isArray(a.captions)) return 'captions is not an object';
  for (const [receiptId, edit] of Object.entries(a.captions)) {
    if (!RECEIPT_ID_PATTERN.test(receiptId)) return `captions names ${JSON.stringify(receiptId)}, which is not a receipt id`;
    if (typeof edit !== 'object' || edit === null || typeof edit.at !== 'number') return `captions.${receiptId} is not {text, at}`;
    const problem = captionProblem(edit.text);
    if (problem) return `captions.${receiptId}: ${problem}`;
  }
  const signing = a.signing as Partial<Annotations['signing']> | undefined;
  if (signing?.algorithm !== 'Ed25519' || typeof signing.fingerprint !== 'string' || typeof signing.publicKey !== 'string') {
    return 'signing is not {algorithm: Ed25519, fingerprint, publicKey}';
  }
  return null;
}

/**
 * Reads and checks a bundle's annotations against its manifest's bytes: the shape, the
 * signature (by the key the manifest names), and that it annotates exactly this manifest.
 */
export async function readAnnotations(dir: string, bundleId: string, manifest: { data: Buffer; fingerprint: string } | null): Promise<AnnotationsRead> {
  let data: Buffer;
  try {
    data = await readFile(join(dir, ANNOTATIONS_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'none' };
    return { state: 'bad', problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch (error) {
    return { state: 'bad', problem: `not valid JSON (${(error as Error).message})` };
  }
  const shape = shapeProblem(parsed, bundleId);
  if (shape) return { state: 'bad', problem: shape };
  const file = parsed as AnnotationsFile;
  const { annotations } = file;
  if (!manifest) return { state: 'bad', problem: `annotates a sealed bundle, but ${MANIFEST_FILE} is missing` };
  if (annotations.manifestSha256 !== sha256Hex(manifest.data)) return { state: 'bad', problem: `annotates another ${MANIFEST_FILE} than this bundle's (its SHA-256 differs)` };
  let key;
  try {
    key = ed25519PublicKey(annotations.signing.publicKey);
  } catch (error) {
    return { state: 'bad', problem: `signing.publicKey: ${(error as Error).message}` };
  }
  const fingerprint = fingerprintOf(key);
  if (fingerprint !== annotations.signing.fingerprint) return { state: 'bad', problem: 'signing.fingerprint does not match signing.publicKey' };
  if (fingerprint !== manifest.fingerprint) return { state: 'bad', problem: `signed by key ${fingerprint}, not the key that sealed the bundle (${manifest.fingerprint})` };
  const signature = Buffer.from(file.signature, 'base64');
  if (signature.length !== 64 || !verifyBytes(key, Buffer.from(JSON.stringify(annotations), 'utf8'), signature)) {
    return { state: 'bad', problem: 'does not match its signature: the edits were changed after they were signed' };
  }
  return { state: 'ok', annotations };
}

/**
 * Sets (or, with null, removes) the caption edit of one step and writes the file signed,
 * atomically: built under `scratchDir` (outside the bundle, so no half-written file is ever
 * in it), fsynced, renamed in, the folder fsynced. Returns what was written.
 */
export async function writeCaptionEdit(options: {
  dir: string;
  scratchDir: string;
  bundleId: string;
  manifestData: Buffer;
  key: SigningKey;
  current: Annotations | null;
  receiptId: string;
  caption: string | null;
  now: number;
}): Promise<Annotations> {
  const captions = { ...(options.current?.captions ?? {}) };
  if (options.caption === null) delete captions[options.receiptId];
  else captions[options.receiptId] = { text: options.caption, at: options.now };
  const annotations: Annotations = {
    format: ANNOTATIONS_FORMAT,
    bundleId: options.bundleId,
    manifestSha256: sha256Hex(options.manifestData),
    updatedAt: options.now,
    captions,
    signing: { algorithm: 'Ed25519', fingerprint: options.key.fingerprint, publicKey: options.key.publicKeyPem },
  };
  const signature = signBytes(options.key, Buffer.from(JSON.stringify(annotations), 'utf8')).toString('base64');
  const file: AnnotationsFile = { annotations, signature };
  const scratch = join(options.scratchDir, `.annotations-${options.bundleId}.tmp`);
  await unlink(scratch).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await writeNewFile(scratch, Buffer.from(`${JSON.stringify(file, null, 2)}\n`, 'utf8'));
  await rename(scratch, join(options.dir, ANNOTATIONS_FILE));
  await fsyncDir(options.dir);
  await fsyncDir(options.scratchDir);
  return annotations;
}

/** A bundle's annotations as the UI shows them, checked against the manifest beside them (verify is the authority). */
export async function annotationsOf(dir: string, bundleId: string): Promise<AnnotationsRead> {
  let manifestData: Buffer | null = null;
  try {
    manifestData = await readFile(join(dir, MANIFEST_FILE));
  } catch {
    manifestData = null;
  }
  let fingerprint = '';
  try {
    if (manifestData) fingerprint = String((JSON.parse(manifestData.toString('utf8')) as { signing?: { fingerprint?: unknown } }).signing?.fingerprint ?? '');
  } catch {
    // A manifest that is not JSON: the annotations then cannot match it.
  }
  return readAnnotations(dir, bundleId, manifestData ? { data: manifestData, fingerprint } : null);
}
