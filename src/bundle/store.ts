// The bundles of one data folder: creating them at consent, listing and reading them, and
// sealing what a crashed host left open.
import { constants, lstatSync } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BundleDetail, BundleSummary } from './views.js';
import { fsyncDir, writeNewFile } from './durable.js';
import { asWriteError } from './errors.js';
import {
  EVENTS_FILE, GENESIS_PREV, MANIFEST_FILE, PICTURE_FILE_PATTERN, PICTURES_DIR, SIGNATURE_FILE, encodeEvent, isBundleId,
  newBundleId, parseEvents, requesterProblem, sha256Hex, BUNDLE_ID_PATTERN, type ConsentEvent, type ConsentRequester,
} from './format.js';
import { annotationsOf, writeCaptionEdit } from './annotations.js';
import { SerialQueue } from '../common/serial-queue.js';
import { autoCaption, captionProblem } from './presentation.js';
import { detailOf, readBundleEvents, summarize } from './read.js';
import { verifyBundle } from './verify.js';
import { FRAME_FILE_PATTERN, RECORDING_DIR, RECORDING_INDEX, frameNumberOf, parseRecording } from './recording-format.js';
import { RecordingWriter, type RecordingPosition } from './recording.js';
import { SessionBundleWriter, positionAfter, type SessionBundle } from './session-bundle.js';
import { loadOrCreateSigningKey, type SigningKey } from './signing.js';
import { ListedFrames, playableRecording } from './playback.js';

export interface BundleStoreOptions {
  /** The host's data folder; bundles live in `<dataDir>/bundles/`, the signing key in `<dataDir>/keys/`. */
  dataDir: string;
  /** Clock in ms since the epoch (tests pass their own). */
  now?: () => number;
  /** Told about bundles that list() or recoverUnsealed() had to pass over, and why. */
  log?: (message: string) => void;
}

export interface ConsentInfo {
  sessionId: string;
  appId: string;
  appName: string;
  /** The name the agent gave for itself: a claim, stored as such. */
  agentName: string;
  requestedAt: number;
  answeredAt: number;
  /** Who said yes, e.g. 'local user via web shell'. */
  answeredBy: string;
  /** The process that asked, as the OS reported it from the socket. */
  requester?: ConsentRequester;
}

/** The bundles of one data folder. */
export interface BundleStore {
  /** Creates a session's bundle with its consent record, durably, and opens it for records. */
  create(info: ConsentInfo): Promise<SessionBundle>;
  /** Every readable bundle, newest first. */
  list(): Promise<BundleSummary[]>;
  /** One bundle (open or sealed); throws a clear Error for an unknown or invalid id. */
  get(bundleId: string): Promise<BundleDetail>;
  /**
   * Sets a step's caption (null, or the receipt's own caption, goes back to the original) in
   * the signed annotations beside a sealed bundle; resolves with the bundle as it now reads.
   * Refused, with what to do, for an open bundle, one that does not verify, or bad text.
   */
  editCaption(bundleId: string, receiptId: string, caption: string | null): Promise<BundleDetail>;
  /** The folder of a bundle of this store; a clear Error for an invalid or unknown id. */
  folderOf(bundleId: string): Promise<string>;
  /**
   * Deletes a bundle from disk, at the person's explicit request: it leaves the list at once
   * (renamed aside, then removed). Refused for a bundle still being recorded.
   */
  delete(bundleId: string): Promise<void>;
  /** Seals every bundle a crashed host left unsealed (`killed`, 'host crash' unless an end was recorded); returns their ids. */
  recoverUnsealed(): Promise<string[]>;
  /** Absolute path of a picture inside a bundle, or null if the name is not a picture of that bundle (no path traversal). */
  picturePath(bundleId: string, picture: string): string | null;
  /**
   * Absolute path of a recording frame (`recording/<n>.jpg`) of a sealed bundle, or null: the
   * bundle is not sealed, its manifest does not list the frame at that size, or it is a link.
   */
  framePath(bundleId: string, frame: string): Promise<string | null>;
  readonly bundlesDir: string;
  /** The installation's signing key fingerprint, creating the key if there is none yet. */
  signingKeyFingerprint(): Promise<string>;
}

const CREATING_PREFIX = '.creating-';
/** A bundle being deleted: renamed to this first, so it is gone from the list in one step. */
const DELETING_PREFIX = '.deleting-';

function requireString(value: unknown, name: string, nonEmpty: boolean): asserts value is string {
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
    throw new TypeError(`create: ${name} must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${JSON.stringify(value)}`);
  }
}

function requireTime(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`create: ${name} must be a time in ms, got ${JSON.stringify(value)}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

class FileBundleStore implements BundleStore {
  readonly bundlesDir: string;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private keyPromise: Promise<SigningKey> | null = null;
  /** Bundles open in this process: recovery must not seal a live session's bundle. */
  private readonly open = new Map<string, SessionBundleWriter>();
  /** Edits to one bundle's annotations run one at a time. */
  private readonly edits = new Map<string, SerialQueue>();
  private readonly listedFrames = new ListedFrames();

  constructor(private readonly dataDir: string, options: BundleStoreOptions) {
    this.bundlesDir = join(dataDir, 'bundles');
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
  }

  async init(): Promise<void> {
    try {
      const created = await mkdir(this.bundlesDir, { recursive: true, mode: 0o700 });
      // A new folder chain is durable only once each new folder's parent is fsynced.
      if (created) {
        for (let dir = this.bundlesDir; dir.length >= created.length; dir = dirname(dir)) await fsyncDir(dirname(dir));
      }
    } catch (error) {
      throw asWriteError(`creating ${this.bundlesDir}`, error);
    }
  }

  signingKey = (): Promise<SigningKey> => {
    // Created on first use; a failure (disk full) is not cached, so the next seal tries again.
    this.keyPromise ??= loadOrCreateSigningKey(this.dataDir).catch((error: unknown) => {
      this.keyPromise = null;
      throw asWriteError(`loading the bundle signing key in ${join(this.dataDir, 'keys')}`, error);
    });
    return this.keyPromise;
  };

  async signingKeyFingerprint(): Promise<string> {
    return (await this.signingKey()).fingerprint;
  }

  private writer(
    bundleId: string,
    position: Parameters<typeof positionAfter>,
    ended: { state: 'complete' | 'killed'; reason: string } | null,
    recording: RecordingPosition | null,
  ): SessionBundleWriter {
    const dir = join(this.bundlesDir, bundleId);
    return new SessionBundleWriter(bundleId, dir, positionAfter(...position), {
      now: this.now,
      signingKey: this.signingKey,
      onSealed: (id) => this.open.delete(id),
    }, ended, recording ? new RecordingWriter(dir, `bundle ${bundleId}`, recording) : null);
  }

  async create(info: ConsentInfo): Promise<SessionBundle> {
    requireString(info?.sessionId, 'sessionId', true);
    requireString(info.appId, 'appId', true);
    requireString(info.appName, 'appName', false);
    requireString(info.agentName, 'agentName', false);
    requireString(info.answeredBy, 'answeredBy', true);
    requireTime(info.requestedAt, 'requestedAt');
    requireTime(info.answeredAt, 'answeredAt');
    const badRequester = info.requester === undefined ? null : requesterProblem(info.requester);
    if (badRequester) throw new TypeError(`cannot create a bundle: ${badRequester}`);
    const bundleId = newBundleId(this.now());
    const consent: ConsentEvent = {
      seq: 0, prev: GENESIS_PREV, type: 'consent', at: info.answeredAt, bundleId, sessionId: info.sessionId,
      agentName: info.agentName, appId: info.appId, appName: info.appName, requestedAt: info.requestedAt,
      answeredAt: info.answeredAt, answer: 'allow', answeredBy: info.answeredBy,
      ...(info.requester ? { requester: { ...info.requester } } : {}),
    };
    const { seq: _seq, prev: _prev, ...body } = consent;
    const { line, hash } = encodeEvent(0, GENESIS_PREV, body);
    // Built under a hidden name and renamed: a bundle folder appears whole, consent record
    // included, or not at all. A leftover .creating- folder means the session never started.
    const building = join(this.bundlesDir, `${CREATING_PREFIX}${bundleId}`);
    const final = join(this.bundlesDir, bundleId);
    try {
      await mkdir(building, { mode: 0o700 });
      await mkdir(join(building, PICTURES_DIR), { mode: 0o700 });
      await mkdir(join(building, RECORDING_DIR), { mode: 0o700 });
      await writeNewFile(join(building, EVENTS_FILE), line);
      await writeNewFile(join(building, RECORDING_INDEX), Buffer.alloc(0));
      await fsyncDir(join(building, PICTURES_DIR));
      await fsyncDir(join(building, RECORDING_DIR));
      await fsyncDir(building);
      await rename(building, final);
      await fsyncDir(this.bundlesDir);
    } catch (error) {
      throw asWriteError(`creating bundle ${bundleId} in ${this.bundlesDir}`, error);
    }
    // The writer continues after the consent record.
    const writer = this.writer(bundleId, [[consent], hash, line.length], null, { lines: [], head: GENESIS_PREV, length: 0, lastFrameNumber: 0 });
    this.open.set(bundleId, writer);
    return writer;
  }

  async list(): Promise<BundleSummary[]> {
    const names = await readdir(this.bundlesDir);
    const summaries: BundleSummary[] = [];
    for (const name of names) {
      if (!isBundleId(name)) continue;
      try {
        summaries.push(summarize(await readBundleEvents(join(this.bundlesDir, name), name)));
      } catch (error) {
        this.log(`bundle ${name} is not listed: ${(error as Error).message}`);
      }
    }
    return summaries.sort((a, b) => b.startedAt - a.startedAt || (a.bundleId < b.bundleId ? 1 : -1));
  }

  async get(bundleId: string): Promise<BundleDetail> {
    if (!isBundleId(bundleId)) throw new Error(`invalid bundle id ${JSON.stringify(bundleId)}: expected ${BUNDLE_ID_PATTERN}`);
    const dir = join(this.bundlesDir, bundleId);
    if (!(await exists(join(dir, EVENTS_FILE)))) throw new Error(`unknown bundle ${bundleId}: no such bundle in ${this.bundlesDir}`);
    const events = await readBundleEvents(dir, bundleId);
    return detailOf(events, await annotationsOf(dir, bundleId), await playableRecording(dir, events));
  }

  async folderOf(bundleId: string): Promise<string> {
    if (!isBundleId(bundleId)) throw new Error(`invalid bundle id ${JSON.stringify(bundleId)}: expected ${BUNDLE_ID_PATTERN}`);
    const dir = join(this.bundlesDir, bundleId);
    const entry = await lstat(dir).catch(() => null);
    if (!entry) throw new Error(`unknown bundle ${bundleId}: no such bundle in ${this.bundlesDir}`);
    if (!entry.isDirectory()) throw new Error(`${dir} is not a bundle folder (a link or a file)`);
    return dir;
  }

  async delete(bundleId: string): Promise<void> {
    const dir = await this.folderOf(bundleId);
    if (this.open.has(bundleId)) throw new Error(`bundle ${bundleId} is still being recorded: stop or end its session first, then delete it`);
    const aside = join(this.bundlesDir, `${DELETING_PREFIX}${bundleId}`);
    try {
      await rename(dir, aside);
      await fsyncDir(this.bundlesDir);
      // rm removes links themselves, never what they point to.
      await rm(aside, { recursive: true, force: true });
    } catch (error) {
      throw asWriteError(`deleting bundle ${bundleId} in ${this.bundlesDir}`, error);
    }
  }

  async editCaption(bundleId: string, receiptId: string, caption: string | null): Promise<BundleDetail> {
    const detail = await this.get(bundleId);
    const step = detail.steps.find((s) => s.receiptId === receiptId);
    if (!step) throw new Error(`bundle ${bundleId} has no step with receipt ${JSON.stringify(receiptId)}`);
    if (caption !== null) {
      const problem = captionProblem(caption);
      if (problem) throw new Error(`caption not saved: ${problem}`);
    }
    const dir = join(this.bundlesDir, bundleId);
    if (detail.summary.state === 'open' || this.open.has(bundleId)) throw new Error(`bundle ${bundleId} is still being recorded: captions can be edited once it is sealed`);
    const queue = this.edits.get(bundleId) ?? new SerialQueue();
    this.edits.set(bundleId, queue);
    await queue.run(async () => {
      const verified = await verifyBundle(dir);
      if (!verified.ok) throw new Error(`bundle ${bundleId} does not verify (${verified.file}: ${verified.problem}), so its captions cannot be edited`);
      const key = await this.signingKey();
      if (verified.fingerprint !== key.fingerprint) {
        throw new Error(`bundle ${bundleId} was sealed with key ${verified.fingerprint}, not this installation's (${key.fingerprint}): its captions can be edited only where it was sealed`);
      }
      const current = await annotationsOf(dir, bundleId);
      const original = caption === null || caption.trim() === autoCaption(step).trim();
      try {
        await writeCaptionEdit({
          dir, scratchDir: this.bundlesDir, bundleId, manifestData: await readFile(join(dir, MANIFEST_FILE)), key,
          current: current.state === 'ok' ? current.annotations : null, receiptId, caption: original ? null : caption.trim(), now: this.now(),
        });
      } catch (error) {
        throw asWriteError(`saving the caption in ${join(dir, 'annotations.json')}`, error);
      }
    });
    return this.get(bundleId);
  }

  picturePath(bundleId: string, picture: string): string | null {
    if (!isBundleId(bundleId) || typeof picture !== 'string' || !PICTURE_FILE_PATTERN.test(picture)) return null;
    const path = join(this.bundlesDir, bundleId, picture);
    try {
      return lstatSync(path).isFile() ? path : null;
    } catch {
      return null;
    }
  }

  async framePath(bundleId: string, frame: string): Promise<string | null> {
    if (!isBundleId(bundleId)) return null;
    return this.listedFrames.pathOf(join(this.bundlesDir, bundleId), frame);
  }

  async recoverUnsealed(): Promise<string[]> {
    const recovered: string[] = [];
    if ((await lstat(this.bundlesDir)).isSymbolicLink()) {
      this.log(`no bundle is recovered: ${this.bundlesDir} is a link, and recovery writes only inside the data folder`);
      return recovered;
    }
    for (const name of (await readdir(this.bundlesDir)).sort()) {
      if (name.startsWith(DELETING_PREFIX)) {
        // A delete the person asked for, cut off by a crash: finish it.
        await rm(join(this.bundlesDir, name), { recursive: true, force: true }).catch((error: unknown) => this.log(`${name}: could not finish deleting it: ${(error as Error).message}`));
        continue;
      }
      if (name.startsWith(CREATING_PREFIX)) {
        this.log(`${name}: a bundle whose creation was interrupted (no session started); left as it is`);
        continue;
      }
      if (!isBundleId(name) || this.open.has(name)) continue;
      const dir = join(this.bundlesDir, name);
      // Recovery writes (truncates a torn line, seals): only into a real folder of this data
      // folder, never through a link that may lead out of it.
      const linked = await this.linkedPart(dir);
      if (linked) {
        this.log(`bundle ${name} is not recovered: ${linked} is a link or not a regular file or folder; a bundle holds only its own files`);
        continue;
      }
      // A seal is complete once manifest.sig exists (it is renamed in last). A signed bundle that
      // no longer verifies was changed after sealing: that is for verify to report, not to re-seal.
      if (await exists(join(dir, SIGNATURE_FILE))) continue;
      try {
        await this.recoverOne(name, dir);
        recovered.push(name);
      } catch (error) {
        // Left unsealed (never half-sealed): the next start tries again.
        this.log(`bundle ${name} could not be sealed after a crash: ${(error as Error).message}`);
      }
    }
    return recovered;
  }

  /** The first part of a bundle folder recovery would write through that is a link (or not a plain file or folder), or null. */
  private async linkedPart(dir: string): Promise<string | null> {
    const folder = await lstat(dir);
    if (!folder.isDirectory()) return dir;
    for (const [name, kind] of [[EVENTS_FILE, 'file'], [PICTURES_DIR, 'folder']] as const) {
      const entry = await lstat(join(dir, name)).catch(() => null);
      if (entry && !(kind === 'file' ? entry.isFile() : entry.isDirectory())) return join(dir, name);
    }
    return null;
  }

  private async recoverOne(bundleId: string, dir: string): Promise<void> {
    const eventsPath = join(dir, EVENTS_FILE);
    const data = await readFile(eventsPath);
    const parsed = parseEvents(data);
    if (parsed.problem) throw new Error(`${EVENTS_FILE} line ${parsed.problem.line}: ${parsed.problem.message}`);
    if (parsed.events.length === 0) throw new Error(`${EVENTS_FILE} holds no consent record`);
    let truncated: { bytes: number; sha256: string; note: string } | undefined;
    if (parsed.tornTail) {
      // The last write never finished, so nothing was answered on it: cut it off, and say so.
      truncated = {
        bytes: parsed.tornTail.length,
        sha256: sha256Hex(parsed.tornTail),
        note: `a partly written last line (${parsed.tornTail.length} bytes) was cut off when the host restarted after a crash`,
      };
      const handle = await open(eventsPath, constants.O_RDWR | constants.O_NOFOLLOW);
      try {
        await handle.truncate(parsed.completeBytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    const last = parsed.events.at(-1);
    const ended = last?.type === 'end' ? { state: last.state, reason: last.reason } : null;
    if (ended && truncated) throw new Error(`${EVENTS_FILE} has bytes after its end event`);
    // A recording that was cut off mid-line is cut back the same way; its frames up to there stand.
    const recording = ended ? null : await this.recoverRecording(dir);
    const writer = this.writer(bundleId, [parsed.events, parsed.head, parsed.completeBytes], ended, recording);
    // An end already recorded (the crash hit between it and the seal) stands; otherwise the host crashed mid-session.
    await writer.sealWith('killed', 'host crash', truncated ? { truncated } : {});
  }

  /** Where a crashed session's recording stands (a torn last index line cut off), or null for a bundle without one. */
  private async recoverRecording(dir: string): Promise<RecordingPosition | null> {
    const indexPath = join(dir, RECORDING_INDEX);
    let data: Buffer;
    try {
      data = await readFile(indexPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const parsed = parseRecording(data);
    if (parsed.problem) throw new Error(`${RECORDING_INDEX} line ${parsed.problem.line}: ${parsed.problem.message}`);
    if (parsed.tornTail) {
      // A frame line whose write never finished: its frame was never vouched for as recorded.
      const handle = await open(indexPath, 'r+');
      try {
        await handle.truncate(parsed.completeBytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    let lastFrameNumber = 0;
    for (const name of await readdir(join(dir, RECORDING_DIR))) {
      const path = `${RECORDING_DIR}/${name}`;
      if (FRAME_FILE_PATTERN.test(path)) lastFrameNumber = Math.max(lastFrameNumber, frameNumberOf(path) as number);
    }
    return { lines: parsed.lines, head: parsed.head, length: parsed.completeBytes, lastFrameNumber };
  }
}

/** Opens the bundle store of a data folder, creating `<dataDir>/bundles/` (0700) if needed. */
export async function openBundleStore(options: BundleStoreOptions): Promise<BundleStore> {
  if (typeof options?.dataDir !== 'string' || options.dataDir.length === 0) {
    throw new TypeError(`openBundleStore: dataDir must be a non-empty path, got ${JSON.stringify(options?.dataDir)}`);
  }
  const store = new FileBundleStore(options.dataDir, options);
  await store.init();
  return store;
}
