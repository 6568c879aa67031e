import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    // src/ is plain Node and the renderer is a browser page: neither may import Electron
    // (VS Code's code-import-patterns idea). Only electron/ touches it.
    files: ['src/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only electron/ may import Electron.' }] }],
    },
  },
  {
    // The page agent runs in a web page (bundled into the injected script): browser globals.
    files: ['src/targets/page-agent/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The renderer sees the host only through the bridge interface and the contract's types.
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only electron/ may import Electron.' }],
          patterns: [
            { regex: '^node:', message: 'The renderer is a browser page: no Node modules.' },
            { regex: '(^|/)src/(?!host/bridge|contract/types)', message: 'The renderer imports only the bridge interface and contract types.' },
          ],
        },
      ],
    },
  },
);
