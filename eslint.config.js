// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What each side may not import (DEVELOPERS.md): the renderer is untrusted web code; only electron/ talks to Electron. */
const ELECTRON_ONLY = { name: 'electron', message: 'Only electron/ imports electron.' };

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'coverage/', 'test-results/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [ELECTRON_ONLY] }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ELECTRON_ONLY],
          patterns: [{ group: ['**/renderer/**', '**/electron/**'], message: 'The core does not depend on the app shells.' }],
        },
      ],
    },
  },
  { files: ['electron/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ELECTRON_ONLY,
            { name: 'better-sqlite3', message: 'The renderer reaches the store only through window.brickWork.' },
          ],
          patterns: [
            { group: ['**/src/store', '**/src/store/**'], message: 'The renderer reaches the store only through window.brickWork.' },
            { group: ['node:*'], message: 'The renderer is web code: no Node modules.' },
          ],
        },
      ],
    },
  },
);
