// `cutright open [--data-dir DIR] [--print] [--json]`: prints the running host's UI URL (read
// from the data folder's lock) and, unless --print, opens it in the person's browser.
//
// The URL holds the web shell's secret, so it is never put on a command line (other users can
// read command lines in /proc): the browser is given a user-only page in the data folder that
// forwards to the URL instead.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileAtomic } from '../bundle/durable.js';
import { OPEN_PAGE_FILE, readRunningHost } from '../instance/host-lock.js';
import { defaultDataDir } from './options.js';

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

export const OPEN_USAGE = `usage: cutright open [--data-dir DIR] [--print] [--json]

  Prints the UI URL of the CutRight host running with this data folder and opens it in your
  browser (the BROWSER environment variable, else the desktop's default).
  --data-dir  the running host's data folder (default: CUTRIGHT_DATA_DIR, else the platform's)
  --print     only print the URL
  --json      print {"pid","socket","ui","ui_url","data_dir"} on one line; implies --print`;

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function forwardingPage(url: string): string {
  const href = escapeAttribute(url);
  return `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${href}"><title>CutRight</title><a href="${href}">Open CutRight</a>\n`;
}

/** The command that opens a file in the person's browser here, or null when there is no desktop to open it on. */
function opener(env: NodeJS.ProcessEnv, file: string): [string, string[]] | null {
  const browser = env['BROWSER'];
  if (browser) return [browser, [file]];
  if (process.platform === 'darwin') return ['open', [file]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', file]];
  if (env['DISPLAY'] || env['WAYLAND_DISPLAY']) return ['xdg-open', [file]];
  return null;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', env, detached: process.platform !== 'win32' });
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code) => resolve(code === 0 ? null : `${command} exited with code ${code}`));
  });
}

export async function runOpenCommand(argv: string[], io: Io): Promise<number> {
  const out = (line: string) => io.stdout.write(line + '\n');
  const err = (line: string) => io.stderr.write(line + '\n');
  let dataDir = io.env['CUTRIGHT_DATA_DIR'] || defaultDataDir(io.env);
  let print = false;
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      out(OPEN_USAGE);
      return 0;
    }
    if (arg === '--print') print = true;
    else if (arg === '--json') json = print = true;
    else if (arg === '--data-dir' && argv[i + 1]) dataDir = argv[++i]!;
    else if (arg.startsWith('--data-dir=') && arg.length > '--data-dir='.length) dataDir = arg.slice('--data-dir='.length);
    else {
      err(`cutright open: unknown argument "${arg}"\n${OPEN_USAGE}`);
      return 2;
    }
  }
  dataDir = path.resolve(dataDir);
  const running = await readRunningHost(dataDir);
  if (!running) {
    err(`cutright open: no CutRight host is running with the data folder ${dataDir}; start one with \`cutright\` (or name its folder with --data-dir)`);
    return 1;
  }
  if (json) {
    out(JSON.stringify({ pid: running.pid, socket: running.socket, ui: running.ui, ui_url: running.ui_url, data_dir: running.data_dir }));
    return 0;
  }
  if (running.ui_url === null) {
    out(running.ui === 'electron' ? `The CutRight app (pid ${running.pid}) is running: its window is on your desktop (tray icon: CutRight).` : `The CutRight host (pid ${running.pid}) is starting; its UI is not up yet. Try again in a moment.`);
    return running.ui === 'electron' ? 0 : 1;
  }
  out(running.ui_url);
  if (print) return 0;
  const page = path.join(dataDir, OPEN_PAGE_FILE);
  const command = opener(io.env, page);
  if (!command) {
    err('cutright open: no desktop to open a browser on (no DISPLAY or WAYLAND_DISPLAY); open the URL above yourself');
    return 0;
  }
  await writeFileAtomic(page, Buffer.from(forwardingPage(running.ui_url)));
  const failed = await run(command[0], command[1], io.env);
  if (failed) err(`cutright open: could not open a browser (${failed}); open the URL above yourself, or ${pathToFileURL(page).href}`);
  return 0;
}
