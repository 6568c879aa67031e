#!/usr/bin/env node
// cutright-mcp: the MCP server of the demo tools, over stdio. The code lives in src/mcp/cli.ts
// and runs from the build (npm run build compiles src/ to dist/src/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/src/mcp/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('cutright-mcp: run `npm run build` first (dist/src/mcp/cli.js is missing)\n');
  process.exit(2);
}

const { runMcp } = await import(cli.href);
try {
  process.exitCode = await runMcp(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
} catch (error) {
  process.stderr.write(`cutright-mcp: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
