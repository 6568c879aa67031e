// `cutright bundle list | verify | export`: the bundle commands a person or an operator runs
// without starting the host. Everything printed that a bundle holds (agent names above all) goes
// through terminal-text.ts: an agent cannot write to the person's terminal through its name.
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportBundleHtml, openBundleStore, verifyBundle, type VerifyOptions } from '../bundle/index.js';
import { isBundleId } from '../bundle/format.js';
import { exportGif } from '../export/gif.js';
import { ExportError, readExportSource } from '../export/source.js';
import { exportVideo, VIDEO_FORMATS, type ExportResult, type VideoFormat } from '../export/video.js';
import { createChromiumLauncher, findBrowser } from '../targets/chromium-launcher.js';
import { defaultDataDir } from './options.js';
import { progressSink } from './progress.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const LIST_USAGE = `usage: cutright bundle list [--data-dir DIR] [--json]

  Lists the data folder's bundles, newest first: id, app, agent (as the agent named itself),
  state, start, duration, steps. Says which data folder it read.
  --data-dir  the data folder (default: CUTRIGHT_DATA_DIR, else the platform's user data folder)
  --json      one JSON array on stdout (the data folder is named on stderr)`;

const VERIFY_USAGE = `usage: cutright bundle verify <folder | bundle id> [--data-dir DIR] [--trust-key KEY]...

  Checks that a sealed bundle is exactly what was sealed: its signature, every file's size and
  digest, no file added, the events' hash chain, and that the folder is named after the bundle
  id its manifest holds. Exit 0 when intact, 1 naming the first thing wrong, 2 on bad usage.
  A bundle id is looked up in the data folder's bundles/.
  --data-dir   the data folder a bundle id is looked up in, and whose signing key is trusted
  --trust-key  also trust this signing key: its fingerprint (sha256:...) or its public key file
               (PEM). A bundle signed by a key neither this installation nor --trust-key names
               fails: anyone can seal a bundle with a key of their own.`;

const EXPORT_USAGE = `usage: cutright bundle export <folder | bundle id> [--html FILE] [--video FILE] [--gif FILE] [--data-dir DIR] [--trust-key KEY]...

  Writes the bundle as what people send; give one or more of:
  --html       one self-contained HTML page (pictures inline, no outside references), with
               whether it verifies
  --video      the recording as a video, each step's highlight and caption drawn over it:
               FILE.webm (VP9) or FILE.mp4 (H.264, where the browser's encoder has it)
  --gif        a short animated summary: one picture per step with its highlight and caption
  --data-dir   the data folder a bundle id is looked up in
  --trust-key  also trust this signing key (as for verify): a video or GIF is made only of a
               sealed bundle that verifies
  A video or GIF is drawn and encoded in Chromium (CUTRIGHT_BROWSER, else the machine's); its
  progress goes to stderr. Nothing is written into the bundle's folder.`;

const USAGE = `usage: cutright bundle list [--data-dir DIR] [--json]
       cutright bundle verify <folder | bundle id> [--data-dir DIR] [--trust-key KEY]...
       cutright bundle export <folder | bundle id> [--html FILE] [--video FILE.webm|.mp4] [--gif FILE.gif] [--data-dir DIR]
       cutright bundle <command> --help   (one command's options)`;

const HELP: Record<string, string> = { list: LIST_USAGE, verify: VERIFY_USAGE, export: EXPORT_USAGE };

class UsageError extends Error {}

/** A command's arguments: its positional ones, and the values of the options it takes. */
function parseArgs(command: string, argv: string[], valued: readonly string[], flags: readonly string[]) {
  const positional: string[] = [];
  const values = new Map<string, string[]>();
  const set = new Set<string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (valued.includes(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') throw new UsageError(`cutright bundle ${command}: ${name} needs a value`);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else if (flags.includes(arg)) set.add(arg);
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`cutright bundle ${command}: unknown option "${arg}"`);
    else positional.push(arg);
  }
  return { positional, value: (name: string) => values.get(name)?.at(-1), all: (name: string) => values.get(name) ?? [], flag: (name: string) => set.has(name) };
}

function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

function dataDirOf(given: string | undefined, env: NodeJS.ProcessEnv): string {
  return path.resolve(given ?? (env['CUTRIGHT_DATA_DIR'] || defaultDataDir(env)));
}

/** A bundle given as a folder, or as a bundle id looked up in the data folder; a clear Error when it is neither. */
function bundleFolder(given: string, dataDir: string): string {
  const asPath = path.resolve(given);
  if (existsSync(asPath)) {
    if (!statSync(asPath).isDirectory()) throw new Error(`${given} is a file, not a bundle folder`);
    return asPath;
  }
  if (isBundleId(given)) {
    const inData = path.join(dataDir, 'bundles', given);
    if (existsSync(inData)) return inData;
    throw new Error(`no bundle ${given} in ${path.join(dataDir, 'bundles')} (name another data folder with --data-dir, or give the bundle's folder)`);
  }
  throw new Error(`no such folder: ${asPath} (give a bundle's folder, or its bundle id)`);
}

async function trustOptions(keys: string[]): Promise<VerifyOptions> {
  const trustKeys: string[] = [];
  let publicKeyPem: string | undefined;
  for (const key of keys) {
    if (/^sha256:[0-9a-f]{64}$/.test(key)) trustKeys.push(key);
    else if (key.startsWith('sha256:')) throw new UsageError(`cutright bundle verify: --trust-key ${key} is not a key fingerprint (sha256: and 64 hex digits)`);
    else if (publicKeyPem !== undefined) throw new UsageError('cutright bundle verify: give at most one --trust-key public key file (fingerprints may be repeated)');
    else {
      try {
        publicKeyPem = await readFile(key, 'utf8');
      } catch (error) {
        throw new UsageError(`cutright bundle verify: --trust-key ${key}: cannot read that public key file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
    }
  }
  return { trustKeys, ...(publicKeyPem !== undefined ? { publicKeyPem } : {}) };
}

type Print = (line: string) => void;

async function list(argv: string[], io: Io, out: Print, err: Print): Promise<number> {
  const args = parseArgs('list', argv, ['--data-dir'], ['--json']);
  if (args.positional.length > 0) throw new UsageError(`cutright bundle list: unexpected argument "${args.positional[0]}"`);
  const dataDir = dataDirOf(args.value('--data-dir'), io.env);
  const bundlesDir = path.join(dataDir, 'bundles');
  // Read only: listing a folder no host has used must not create it.
  const bundles = existsSync(bundlesDir) ? await (await openBundleStore({ dataDir, log: (m) => err(`cutright bundle list: ${m}`) })).list() : [];
  const where = existsSync(bundlesDir) ? `data folder ${dataDir}` : `data folder ${dataDir} (it has no bundles folder: no host has recorded there)`;
  if (args.flag('--json')) {
    err(`cutright bundle list: ${bundles.length} bundle${bundles.length === 1 ? '' : 's'} in ${where}`);
    io.stdout.write(terminalSafeJson(bundles) + '\n');
    return 0;
  }
  out(`${bundles.length} bundle${bundles.length === 1 ? '' : 's'} in ${where}`);
  if (bundles.length === 0) return 0;
  const row = (cells: string[]) => io.stdout.write(cells.map(terminalSafe).join('\t') + '\n');
  row(['id', 'app', 'agent', 'state', 'start', 'duration', 'steps']);
  for (const b of bundles) {
    row([b.bundleId, b.appId, b.agentName, b.state, new Date(b.startedAt).toISOString(), formatDuration(b.endedAt === null ? null : b.endedAt - b.startedAt), String(b.steps)]);
  }
  return 0;
}

async function verify(argv: string[], io: Io, out: Print): Promise<number> {
  const args = parseArgs('verify', argv, ['--data-dir', '--trust-key'], []);
  if (args.positional.length !== 1) throw new UsageError('cutright bundle verify takes one bundle folder or bundle id');
  const options = await trustOptions(args.all('--trust-key'));
  const given = args.positional[0]!;
  const dir = bundleFolder(given, dataDirOf(args.value('--data-dir'), io.env));
  const result = await verifyBundle(dir, options);
  if (result.ok) {
    const signer = { given: 'the given key', installation: "this installation's key", trusted: 'a key named by --trust-key' }[result.keySource];
    out(`ok: ${dir} is intact (signed by ${result.fingerprint}, ${signer})`);
    if (result.edits) {
      const n = result.edits.captions;
      out(`edited: ${n === 1 ? '1 caption was' : `${n} captions were`} edited after sealing (${result.edits.file}, signed by the same key, last at ${new Date(result.edits.updatedAt).toISOString()}); the sealed record itself is unchanged`);
    }
    return 0;
  }
  out(`FAILED: ${result.file}: ${result.problem}`);
  return 1;
}

/** The output files asked for, each checked for its extension before anything is read. */
function exportTargets(args: ReturnType<typeof parseArgs>): { html?: string; video?: { file: string; format: VideoFormat }; gif?: string } {
  const html = args.value('--html');
  const video = args.value('--video');
  const gif = args.value('--gif');
  if (!html && !video && !gif) throw new UsageError('cutright bundle export needs at least one of --html FILE, --video FILE.webm|FILE.mp4, --gif FILE.gif');
  const targets: ReturnType<typeof exportTargets> = {};
  if (html) targets.html = html;
  if (video) {
    const format = path.extname(video).slice(1).toLowerCase();
    if (!(VIDEO_FORMATS as readonly string[]).includes(format)) throw new UsageError(`cutright bundle export: --video ${video}: the file must end in .webm or .mp4 (its container; .webm is VP9, .mp4 is H.264)`);
    targets.video = { file: video, format: format as VideoFormat };
  }
  if (gif) {
    if (path.extname(gif).toLowerCase() !== '.gif') throw new UsageError(`cutright bundle export: --gif ${gif}: the file must end in .gif`);
    targets.gif = gif;
  }
  return targets;
}

function describeExport(result: ExportResult, what: string): string {
  const size = result.bytes < 1024 * 1024 ? `${Math.max(1, Math.round(result.bytes / 1024))} KB` : `${(result.bytes / 1024 / 1024).toFixed(1)} MB`;
  return `wrote ${result.path} (${what}, ${(result.durationMs / 1000).toFixed(1)} s, ${result.pictures} pictures, ${size})`;
}

async function exportCommand(argv: string[], io: Io, out: Print): Promise<number> {
  const args = parseArgs('export', argv, ['--html', '--video', '--gif', '--data-dir', '--trust-key'], []);
  const targets = exportTargets(args);
  if (args.positional.length !== 1) throw new UsageError('cutright bundle export takes one bundle folder or bundle id');
  const verifyOptions = await trustOptions(args.all('--trust-key'));
  const dir = bundleFolder(args.positional[0]!, dataDirOf(args.value('--data-dir'), io.env));
  if (!existsSync(path.join(dir, 'events.ndjson'))) throw new Error(`${dir} is not a bundle folder: it has no events.ndjson`);
  if (targets.html) {
    await writeFile(targets.html, await exportBundleHtml(dir));
    out(`wrote ${path.resolve(targets.html)}`);
  }
  if (!targets.video && !targets.gif) return 0;
  const source = await readExportSource(dir, verifyOptions);
  const browser = findBrowser({ env: io.env });
  if (!browser.path) throw new Error(`a video or GIF is drawn in Chromium, and none was found (tried ${browser.tried.join(', ')}): install Chromium or point CUTRIGHT_BROWSER at one`);
  const launcher = createChromiumLauncher({ executablePath: browser.path });
  const openTarget = () => launcher.open('about:blank');
  try {
    const steps = [
      ...(targets.video ? [{ label: `video ${path.basename(targets.video.file)}`, run: (onProgress: (p: number) => void) => exportVideo({ source, out: targets.video!.file, format: targets.video!.format, openTarget, onProgress }), what: targets.video.format === 'mp4' ? 'MP4, H.264' : 'WebM, VP9' }] : []),
      ...(targets.gif ? [{ label: `GIF ${path.basename(targets.gif)}`, run: (onProgress: (p: number) => void) => exportGif({ source, out: targets.gif!, openTarget, onProgress }), what: 'GIF' }] : []),
    ];
    for (const step of steps) {
      const bar = progressSink(io.stderr, `cutright bundle export: ${step.label}`);
      try {
        const result = await step.run((p) => bar.update(p));
        bar.end();
        out(describeExport(result, result.codec.startsWith('vp8') ? 'WebM, VP8' : step.what));
      } finally {
        bar.end();
      }
    }
  } catch (error) {
    if (error instanceof ExportError) throw new Error(error.message);
    throw error;
  } finally {
    await launcher.close();
  }
  return 0;
}

export async function runBundleCommand(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  const out: Print = (line) => io.stdout.write(terminalSafe(line) + '\n');
  const err: Print = (line) => io.stderr.write(terminalSafe(line) + '\n');
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined;
    (command === undefined ? io.stderr : io.stdout).write(`${(topic && HELP[topic]) || USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  const help = HELP[command];
  if (!help) {
    err(`cutright bundle: unknown command "${command}"`);
    io.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  try {
    if (command === 'list') return await list(rest, io, out, err);
    if (command === 'verify') return await verify(rest, io, out);
    return await exportCommand(rest, io, out);
  } catch (error) {
    if (error instanceof UsageError) {
      err(error.message);
      io.stderr.write(`${help}\n`);
      return 2;
    }
    err(`cutright bundle ${command}: ${(error as Error).message}`);
    return 1;
  }
}
