#!/usr/bin/env node
// Type-checks each part against its own environment: the core (Node), the Electron shell
// (against electron's own types), the renderer (DOM), and the page agent (DOM, in a page).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
let failed = false;
for (const project of ['tsconfig.json', 'electron/tsconfig.json', 'electron/tsconfig.test.json', 'renderer/tsconfig.json', 'src/targets/page-agent/tsconfig.json', 'src/export/render-page/tsconfig.json']) {
  const result = spawnSync(tsc, ['-p', project, '--noEmit'], { cwd: root, stdio: 'inherit' });
  process.stdout.write(`tsc -p ${project}: ${result.status === 0 ? 'ok' : 'FAILED'}\n`);
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
