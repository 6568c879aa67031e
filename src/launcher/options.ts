// The launcher's command line (HOST-SPEC section 4):
// cutright [--ui electron|web] [--socket PATH] [--data-dir DIR] [--port N] [--fixtures] [--browser PATH] [--json]
import os from 'node:os';
import path from 'node:path';
import { resolveSocketPath } from '../service/socket-path.js';

export interface LaunchOptions {
  ui: 'electron' | 'web' | undefined;
  socketPath: string;
  dataDir: string;
  port: number;
  fixtures: boolean;
  browser: string | undefined;
  json: boolean;
}

export class LaunchUsageError extends Error {
  override readonly name = 'LaunchUsageError';
}

export const LAUNCH_USAGE = `usage: cutright [--ui electron|web] [--socket PATH] [--data-dir DIR] [--port N] [--fixtures] [--browser PATH] [--json]
       cutright open [--data-dir DIR] [--print] [--json]
       cutright bundle list [--data-dir DIR] [--json]
       cutright bundle verify <folder | bundle id> [--data-dir DIR] [--trust-key KEY]...
       cutright bundle export <folder | bundle id> --html FILE [--data-dir DIR]
       (cutright open --help, cutright bundle <command> --help: that command's options)

  --ui        electron (the desktop app) or web (the UI served on 127.0.0.1); default:
              Electron when its binary is installed, else web
  --socket    the agent demo socket (default: CUTRIGHT_SOCKET, else the per-user default)
  --data-dir  settings and bundles (default: CUTRIGHT_DATA_DIR, else the platform's user data folder)
  --port      the web UI's port (default: any free one)
  --fixtures  offer the fixture app, for tests and first tries (also CUTRIGHT_FIXTURES=1;
              development and test builds only)
  --browser   the Chromium the web shell drives targets in (also CUTRIGHT_BROWSER)
  --json      print one JSON line when ready: {"ready":true,"socket","ui_url","data_dir"}

One host runs per data folder and per socket: a second start exits with code 3, naming the
running host's socket and UI URL, and changes nothing.`;

/** The platform's user data folder for CutRight. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'CutRight');
  if (platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'CutRight');
  return path.join(env['XDG_DATA_HOME'] || path.join(home, '.local', 'share'), 'cutright');
}

export function parseLaunchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): LaunchOptions {
  let ui: LaunchOptions['ui'];
  let socket: string | undefined;
  let dataDir: string | undefined;
  let port = 0;
  let fixtures = env['CUTRIGHT_FIXTURES'] === '1';
  let browser = env['CUTRIGHT_BROWSER'] || undefined;
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new LaunchUsageError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--ui': {
        const v = value();
        if (v !== 'electron' && v !== 'web') throw new LaunchUsageError(`--ui must be electron or web, not "${v}"`);
        ui = v;
        break;
      }
      case '--socket':
        socket = value();
        break;
      case '--data-dir':
        dataDir = value();
        break;
      case '--port': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new LaunchUsageError(`--port must be a port number from 0 to 65535, not "${v}"`);
        port = n;
        break;
      }
      case '--fixtures':
        fixtures = true;
        break;
      case '--browser':
        browser = value();
        break;
      case '--json':
        json = true;
        break;
      default:
        throw new LaunchUsageError(`unknown argument "${arg}"`);
    }
  }
  return {
    ui,
    socketPath: resolveSocketPath(socket, env),
    dataDir: path.resolve(dataDir ?? (env['CUTRIGHT_DATA_DIR'] || defaultDataDir(env))),
    port,
    fixtures,
    browser,
    json,
  };
}
