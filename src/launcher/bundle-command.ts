// `cutright bundle list | verify <dir> | export <dir> --html <file>`: the bundle commands a
// person or an operator runs without starting the host.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportBundleHtml, openBundleStore, verifyBundle } from '../bundle/index.js';
import { defaultDataDir } from './options.js';

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const USAGE = `usage: cutright bundle list [--data-dir DIR] [--json]
       cutright bundle verify <dir>
       cutright bundle export <dir> --html <file>`;

function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

export async function runBundleCommand(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  const out = (line: string) => io.stdout.write(line + '\n');
  const err = (line: string) => io.stderr.write(line + '\n');
  try {
    switch (command) {
      case 'list': {
        let dataDir = io.env['CUTRIGHT_DATA_DIR'] || defaultDataDir(io.env);
        let json = false;
        for (let i = 0; i < rest.length; i += 1) {
          if (rest[i] === '--json') json = true;
          else if (rest[i] === '--data-dir' && rest[i + 1]) dataDir = rest[++i]!;
          else {
            err(`cutright bundle list: unknown argument "${rest[i]}"\n${USAGE}`);
            return 2;
          }
        }
        const store = await openBundleStore({ dataDir: path.resolve(dataDir) });
        const bundles = await store.list();
        if (json) {
          out(JSON.stringify(bundles));
          return 0;
        }
        if (bundles.length === 0) {
          out(`no bundles in ${store.bundlesDir}`);
          return 0;
        }
        out(['id', 'app', 'agent', 'state', 'start', 'duration', 'steps'].join('\t'));
        for (const b of bundles) {
          out(
            [
              b.bundleId,
              b.appId,
              b.agentName,
              b.state,
              new Date(b.startedAt).toISOString(),
              formatDuration(b.endedAt === null ? null : b.endedAt - b.startedAt),
              String(b.steps),
            ].join('\t'),
          );
        }
        return 0;
      }
      case 'verify': {
        if (rest.length !== 1) {
          err(`cutright bundle verify takes one bundle folder\n${USAGE}`);
          return 2;
        }
        const result = await verifyBundle(path.resolve(rest[0]!));
        if (result.ok) {
          // A bundle checked only against the key in its own manifest is consistent, but who
          // signed it cannot be told (docs/bundle.md): say so rather than imply more.
          const signer =
            result.keySource === 'manifest'
              ? `signed by ${result.fingerprint}, a key this installation does not know`
              : `signed by this installation's key ${result.fingerprint}`;
          out(`ok: ${rest[0]} is intact (${signer})`);
          return 0;
        }
        out(`FAILED: ${result.file}: ${result.problem}`);
        return 1;
      }
      case 'export': {
        const htmlAt = rest.indexOf('--html');
        const file = htmlAt === -1 ? undefined : rest[htmlAt + 1];
        const dirs = rest.filter((_, i) => i !== htmlAt && i !== htmlAt + 1);
        if (!file || dirs.length !== 1) {
          err(`cutright bundle export needs a bundle folder and --html <file>\n${USAGE}`);
          return 2;
        }
        const html = await exportBundleHtml(path.resolve(dirs[0]!));
        await writeFile(file, html);
        out(`wrote ${file}`);
        return 0;
      }
      default:
        err(command ? `cutright bundle: unknown command "${command}"\n${USAGE}` : USAGE);
        return 2;
    }
  } catch (error) {
    err(`cutright bundle ${command}: ${(error as Error).message}`);
    return 1;
  }
}
