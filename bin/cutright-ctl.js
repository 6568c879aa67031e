#!/usr/bin/env node
// cutright-ctl: the demo client's command line. The code lives in src/client/cli.ts and runs
// from the build (npm run build compiles src/ to dist/src/).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/src/client/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('cutright-ctl: run `npm run build` first (dist/src/client/cli.js is missing)\n');
  process.exit(2);
}

const { runCtl } = await import(cli.href);
try {
  // exitCode, not exit(): stdout is flushed before the process ends, even into a pipe.
  process.exitCode = await runCtl(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
} catch (error) {
  process.stderr.write(`cutright-ctl: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
