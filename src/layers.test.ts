// The layer rule of eslint.config.js, run through ESLint's Node API on small in-memory sources
// placed in the tree: an import against the layer order (docs/architecture.md, "Layers") must
// fail the lint, and one along it must pass.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rule ids that fire on `source` as if it were the file `file` (which need not exist). */
async function problems(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

describe('the layer rule', () => {
  it.each([
    ['a part importing the host', 'src/bundle/wrong.ts', "import type { Host } from '../host/host.js';\nexport type X = Host;\n"],
    ['the contract importing the UI protocol', 'src/contract/wrong.ts', "import type { HostView } from '../ui-protocol/index.js';\nexport type X = HostView;\n"],
    ['the UI protocol importing the host', 'src/ui-protocol/wrong.ts', "import type { Host } from '../host/host.js';\nexport type X = Host;\n"],
    ['the UI protocol importing a Node-side file of bundle/', 'src/ui-protocol/wrong.ts', "import type { BundleStore } from '../bundle/store.js';\nexport type X = BundleStore;\n"],
    ['the host importing a shell', 'src/host/wrong.ts', "import type { WebShell } from '../shell/web/web-shell.js';\nexport type X = WebShell;\n"],
    ['a nested host folder importing a shell', 'src/host/methods/wrong.ts', "import type { WebShell } from '../../shell/web/web-shell.js';\nexport type X = WebShell;\n"],
    ['the renderer importing the host', 'renderer/src/wrong.ts', "import type { Host } from '../../src/host/host.js';\nexport type X = Host;\n"],
    ['the renderer importing bundle/ directly', 'renderer/src/wrong.ts', "import type { BundleSummary } from '../../src/bundle/views.js';\nexport type X = BundleSummary;\n"],
    ['src/ importing the Electron shell', 'src/host/wrong.ts', "import { HOST_WINDOW_ROLES } from '../../electron/ipc-channels.js';\nexport const x = HOST_WINDOW_ROLES;\n"],
  ])('fails on %s', async (_what, file, source) => {
    const found = await problems(file, source);
    expect(found.length).toBeGreaterThan(0);
    for (const problem of found) expect(problem).toMatch(/^import-x\/no-restricted-paths: .*(may import only|imports only|plain Node|runs in the browser)/);
  });

  it('fails on a Node module in code the renderer bundles', async () => {
    expect(await problems('src/ui-protocol/wrong.ts', "import { readFile } from 'node:fs/promises';\nexport const x = readFile;\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*no Node modules/),
    ]);
  });

  it.each([
    ['a part importing the contract', 'src/bundle/right.ts', "import type { EndState } from '../contract/end-state.js';\nexport type X = EndState;\n"],
    ['a part importing a part of its layer', 'src/policy/right.ts', "import type { TargetDriver } from '../targets/types.js';\nexport type X = TargetDriver;\n"],
    ['the UI protocol importing the bundle views', 'src/ui-protocol/right.ts', "import type { BundleSummary } from '../bundle/views.js';\nexport type X = BundleSummary;\n"],
    ['the host importing the UI protocol', 'src/host/methods/right.ts', "import type { HostView } from '../../ui-protocol/index.js';\nimport type { Host } from '../host.js';\nexport type X = [HostView, Host];\n"],
    ['a shell importing the host', 'src/shell/web/right.ts', "import type { Host } from '../../host/host.js';\nexport type X = Host;\n"],
    ['the renderer importing the UI protocol', 'renderer/src/right.ts', "import type { HostView } from '../../src/ui-protocol/index.js';\nexport type X = HostView;\n"],
  ])('passes %s', async (_what, file, source) => {
    expect(await problems(file, source)).toEqual([]);
  });
});
