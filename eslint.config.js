import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layers of src/, bottom up (docs/architecture.md, "Layers"). A folder may import its own
// layer and the layers below it, never one above: the lint rule below is generated from this
// list, so a folder that is in no layer can be imported by none of them. Tests are exempt:
// they compose the layers they test.
export const LAYERS = [
  ['contract', 'common'],
  ['policy', 'targets', 'session', 'service', 'bundle', 'settings', 'client', 'capture', 'instance', 'export'],
  ['ui-protocol'],
  ['host'],
  ['shell', 'launcher', 'mcp'],
];

/** What the browser-side code may use of src/: the UI protocol and the files it is built from. */
const BROWSER_SAFE = ['ui-protocol', 'contract/types.ts', 'contract/end-state.ts', 'bundle/views.ts', 'bundle/presentation.ts', 'bundle/timeline.ts', 'settings/settings.ts'];

function layerZones() {
  const zones = [];
  LAYERS.forEach((layer, index) => {
    const allowed = LAYERS.slice(0, index + 1).flat();
    for (const folder of layer) {
      zones.push({
        target: `./src/${folder}`,
        from: './src',
        except: allowed.map((name) => `./${name}`),
        message: `src/${folder} is in layer ${index} (${layer.join(', ')}): it may import only ${allowed.join(', ')} (docs/architecture.md, "Layers").`,
      });
    }
  });
  // The UI protocol is bundled into the renderer and the preloads: only browser-safe files.
  zones.push({
    target: './src/ui-protocol',
    from: './src',
    except: BROWSER_SAFE.map((name) => `./${name}`),
    message: 'The UI protocol runs in the browser too: it may import only the browser-safe files of src/ (docs/architecture.md, "Layers").',
  });
  zones.push({
    target: './renderer',
    from: './src',
    except: ['./ui-protocol', './contract/types.ts'],
    message: 'The renderer imports only the UI protocol (src/ui-protocol/) and the contract types.',
  });
  zones.push({ target: './src', from: './electron', message: 'src/ is plain Node: only electron/ knows the Electron shell.' });
  zones.push({ target: './src', from: './renderer', message: 'src/ never imports the renderer: it talks to it through the bridge.' });
  return zones;
}

const NO_ELECTRON = { name: 'electron', message: 'Only electron/ may import Electron.' };
const NO_NODE = { regex: '^node:', message: 'This code runs in a browser page: no Node modules.' };

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.tmp-*/**', 'src/contract/schema.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The layer order, checked on resolved paths (a TypeScript source imports `./x.js` for `x.ts`).
    files: ['src/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones() }] },
  },
  {
    // src/ is plain Node and the renderer is a browser page: neither may import Electron
    // (VS Code's code-import-patterns idea). Only electron/ touches it.
    files: ['src/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON] }] },
  },
  {
    // Browser-side code: the renderer, and the files of src/ it bundles.
    files: ['renderer/**/*.{ts,tsx}', ...BROWSER_SAFE.map((name) => (name.endsWith('.ts') ? `src/${name}` : `src/${name}/**/*.ts`))],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [NO_NODE] }] },
  },
  {
    // The page agent and the export's renderer run in a web page (bundled into the injected
    // scripts): browser globals, no Node modules.
    files: ['src/targets/page-agent/**/*.ts', 'src/export/render-page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [NO_NODE] }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
