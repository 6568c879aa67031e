#!/usr/bin/env node
// The `cutright` launcher. The TypeScript is compiled to dist/ by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/launcher/cutright.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('cutright: the host is not built yet: run `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
