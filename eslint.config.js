// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What each side may not import (docs/architecture.md, "Boundaries"): the renderer is untrusted web code; only electron/ talks to Electron. */
const ELECTRON_ONLY = { name: 'electron', message: 'Only electron/ imports electron.' };
const NOT_THE_SHELLS = {
  group: ['**/renderer/**', '**/electron/**'],
  message: 'The core does not depend on the app shells.',
};

/**
 * The core's folders, lowest first. Each may import the folders before it, never one after it: so no two folders can need each other (no cycles), and a change low down is
 * the only kind that reaches far. The app wiring (threads, job host, start-up) is `app`, above the
 * service (`api`) it runs; the three adapters (Electron's IPC, `host`, `cli`) sit on top. Every folder of
 * src/ is in it (test/lint-layers.test.ts): a folder left out would be held by no layer.
 */
export const LAYERS = [
  // The ground every folder and shell stands on (issue 66 §5): the house's own words (errors, reasons,
  // kinds, setting keys, confirmations) and the platform's helpers (clock, files, version, threads).
  'vocabulary',
  'platform',
  'text',
  'identity',
  'store',
  'placement',
  'undo',
  'jobs',
  'catalogue',
  'pictures',
  'suggest',
  'documents',
  'hand',
  'exports',
  'compare',
  'stock',
  'api',
  'app',
  'host',
  'cli',
];

/** The folders below the composition root: the shells (host, cli, electron/) take what they need of them from src/app/. */
/** The ground: the folders every shell may import as freely as the core does (they hold no store and compose nothing). */
const GROUND = ['vocabulary', 'platform'];
const BELOW_THE_ROOT = LAYERS.slice(GROUND.length, LAYERS.indexOf('api'));
const THROUGH_THE_ROOT =
  'The shells reach the core through src/api/ (the contract) and src/app/ (the composition root), never the folders below (SPEC §1).';

const CONTRACT_ONLY =
  'A CLI command in src/cli/commands/ goes through the contract (CliApi.call); a command the app has no counterpart for belongs in src/cli/shell/.';

/**
 * What each shell takes of src/app/: its entry and the functions meant for it (issue 50: the app composes
 * every adapter). A shell names a store by its place and calls the app; it holds no store, no db and no
 * service context of its own, so the core's types never reach it.
 */
const FROM_THE_APP = {
  'src/cli/': ['cli-core.ts', 'store-commands.ts', 'store-place.ts'],
  'src/host/': ['core.ts', 'env-credentials.ts', 'hand-over.ts', 'store-place.ts'],
  'electron/': ['core.ts', 'store-place.ts'],
};

/** The pattern that keeps `shell` to its part of src/app/ (`app` is how its imports name the folder). */
function appEntries(shell, app) {
  const allowed = FROM_THE_APP[shell];
  return {
    group: [`${app}/**`, ...allowed.map((f) => `!${app}/${f}`)],
    message: `${shell} takes from src/app/ only ${allowed.join(', ')}: the app composes every adapter, which holds no store, db or service context of its own (issue 50).`,
  };
}

/** The pattern that keeps the files of `src/<layer>` from every folder above it. */
function foldersAbove(layer) {
  const above = LAYERS.slice(LAYERS.indexOf(layer) + 1);
  const where = `src/${layer}/`;
  if (above.length === 0) return [];
  return [
    {
      group: above.map((l) => `**/${l}/**`),
      message: `${where} may not import ${above.join(', ')}: the folders are layered (eslint.config.js, LAYERS).`,
    },
  ];
}

/**
 * The rule for a shell's own files: the contract, its part of src/app/, nothing below, no shell above it
 * in LAYERS (the host is no CLI); `more` besides.
 */
function shellRule(shell, more = []) {
  const electron = shell === 'electron/';
  const src = electron ? '**/src/' : '**/';
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          ...(electron ? [] : [ELECTRON_ONLY]),
          { name: 'better-sqlite3', message: THROUGH_THE_ROOT },
          { name: 'pg', message: THROUGH_THE_ROOT },
        ],
        patterns: [
          ...(electron ? [] : [NOT_THE_SHELLS, ...foldersAbove(shell.slice('src/'.length, -1))]),
          { group: BELOW_THE_ROOT.map((l) => `${src}${l}/**`), message: THROUGH_THE_ROOT },
          appEntries(shell, `${src}app`),
          ...more,
        ],
      },
    ],
  };
}

const RENDERER_STORE = 'The renderer reaches the store only through window.brickWork.';

const ENGINE_IN_THE_STORE =
  'The engine is settled inside src/store: call a store function named for what it does (issue 50 §2).';

/**
 * An engine question outside the store (issue 66 §4): a store function that answers which engine a store
 * is on lets its caller choose what the store should have chosen. Any name that asks it (`onServer`,
 * `isPostgres`, `usesSqlite`...), and those that ask it under another name.
 */
const ENGINE_QUESTIONS = [
  { group: ['**/store/**'], importNames: ['lookupReadsAhead'], message: ENGINE_IN_THE_STORE },
  {
    group: ['**/store/**'],
    importNamePattern: '^(?:on|is|uses?)\\w*(?:Server|Postgres|Pg|Sqlite|SQLite)',
    message: ENGINE_IN_THE_STORE,
  },
];

/**
 * Below the API, what a store's address is decides nothing: the store function does. Its words are the
 * API's and the vocabulary's (an error names the kind of place a store is).
 */
const BELOW_THE_API = LAYERS.slice(LAYERS.indexOf('vocabulary') + 1, LAYERS.indexOf('api'));

/**
 * The rule for files of `src/<layer>`: no folder above; and outside the
 * store, neither the engines' drivers nor the store's engine-specific modules; `more` besides.
 */
function layerRule(layer, more = []) {
  const store = layer === 'store';
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          ELECTRON_ONLY,
          ...(store
            ? []
            : [
                { name: 'better-sqlite3', message: ENGINE_IN_THE_STORE },
                { name: 'pg', message: ENGINE_IN_THE_STORE },
              ]),
        ],
        patterns: [
          NOT_THE_SHELLS,
          ...foldersAbove(layer),
          ...(store ? [] : [{ group: ['**/store/dialect.ts', '**/store/postgres/**'], message: ENGINE_IN_THE_STORE }]),
          ...(store ? [] : ENGINE_QUESTIONS),
          ...(store || !BELOW_THE_API.includes(layer)
            ? []
            : [{ group: ['**/store-location.ts'], importNames: ['isServerAddress'], message: ENGINE_IN_THE_STORE }]),
          ...more,
        ],
      },
    ],
  };
}

const VIEWS_SHAPE_ONLY = 'A view only shapes what its handler gives it (issue 50 §3)';

/** What src/api/views.ts may not import besides the api layer's rule: a store, history or placement to read (types may). */
const VIEWS_READ_NOTHING = [
  { group: ['**/store/**', '**/placement/**'], allowTypeImports: true, message: VIEWS_SHAPE_ONLY },
  { group: ['**/undo/**'], message: VIEWS_SHAPE_ONLY },
];

/**
 * SQL is written in src/store only (issue 50 §2): outside it, no statement is prepared or run, no SQL text
 * is written, and no engine is told apart. (A regular expression's `exec` on a value is not SQL.)
 */
const SQL_IN_THE_STORE = 'SQL and the engine’s choice live in src/store: call a store function (issue 50 §2).';
const SQL_WORDS =
  '/^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|DROP|ALTER|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|PRAGMA|VACUUM)\\b/';
/**
 * SQL in any case (issue 66 §4): a statement's shape, not its first word alone, since "Select a file" and
 * "with" are staff's words. A word that starts a phrase of prose ("from the list") is no table's name; a
 * text that ends after `from`/`into` is a template's first part, the table in its substitution.
 */
const PROSE = '(?!(?:a|an|the|this|that|these|those|your|its|their|each|every|which|what|some|all|any|one|it|them)\\b)';
const TABLE = `(?:\\s+${PROSE}[\\w."]|\\s*$)`;
const SQL_SHAPES = `/^\\s*(?:${[
  `select\\s+${PROSE}[\\s\\S]*?\\bfrom${TABLE}`,
  `insert\\s+(?:or\\s+\\w+\\s+)?into${TABLE}`,
  `update\\s+${PROSE}[\\w."]+\\s+set\\b`,
  `delete\\s+from${TABLE}`,
  `with\\s+(?:recursive\\s+)?\\w+\\s*(?:\\([^)]*\\)\\s*)?as\\s*\\(`,
  `(?:create|drop)\\s+(?:temp\\w*\\s+|unique\\s+)?(?:table|index|view|trigger)\\b`,
  `alter\\s+table\\b`,
].join('|')})/i`;

/**
 * The engines' error codes are read in src/store only (issue 66 §1): SQLite's result codes (SQLITE_…) and
 * the server's SQLSTATEs become refusals there (store/errors.ts, store/postgres/); outside, code takes
 * the refusal, or asks the store's storeTrouble, and never tells an engine by its codes.
 */
const ENGINE_CODES_IN_THE_STORE =
  'An engine’s error codes are read in src/store: use its refusal, or storeTrouble/toErrorValue of src/store/errors.ts (issue 66 §1).';
const NO_ENGINE_CODES = [
  'Literal[value=/^SQLITE_/]',
  'TemplateElement[value.raw=/^SQLITE_/]',
  "MemberExpression[property.name='sqlstate']",
].map((selector) => ({ selector, message: ENGINE_CODES_IN_THE_STORE }));

const NO_SQL = {
  'no-restricted-syntax': [
    'error',
    ...[
      'CallExpression[callee.property.name=/^(prepare|pragma)$/]',
      "CallExpression[callee.property.name='exec'][arguments.0.type=/^(Literal|TemplateLiteral)$/]",
      "BinaryExpression[operator='instanceof'][right.name='PostgresDatabase']",
      `Literal[value=${SQL_WORDS}]`,
      `TemplateElement[value.raw=${SQL_WORDS}]`,
      // Each text refused once: the shapes rule takes what the upper-case words rule leaves.
      `Literal[value=${SQL_SHAPES}]:not([value=${SQL_WORDS}])`,
      `TemplateElement[value.raw=${SQL_SHAPES}]:not([value.raw=${SQL_WORDS}])`,
    ].map((selector) => ({ selector, message: SQL_IN_THE_STORE })),
    ...NO_ENGINE_CODES,
  ],
};

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
  // The benches and the scripts share what both need through tools/, never each other's folder (issue 50).
  ...[
    ['bench/**/*.ts', ['scripts']],
    ['scripts/**/*.{ts,mjs}', ['bench']],
    ['tools/**/*.ts', ['bench', 'scripts', 'test']],
  ].map(([files, not]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ELECTRON_ONLY],
          patterns: [
            {
              group: not.map((f) => `**/${f}/**`),
              message: `${files.split('/')[0]}/ may not import ${not.join(', ')}/: what they share is in tools/.`,
            },
          ],
        },
      ],
    },
  })),
  ...LAYERS.map((layer) => ({ files: [`src/${layer}/**/*.ts`], rules: layerRule(layer) })),
  // A view only shapes what its handler gives it (issue 50 §3): the handler reads the store. This block's
  // rule replaces the api layer's for the file, so it repeats that rule and adds to it.
  { files: ['src/api/views.ts'], rules: layerRule('api', VIEWS_READ_NOTHING) },
  { files: ['src/**/*.ts', 'electron/**/*.ts'], ignores: ['src/store/**'], rules: NO_SQL },
  {
    // Rooms a newcomer can read (issue 50 §3): a function longer than a screenful or two is split along its seams.
    files: ['src/**/*.ts', 'renderer/**/*.{ts,tsx}', 'electron/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120, IIFEs: true }] },
  },
  {
    // The CLI's contract commands reach the core only through the contract (src/cli/adapter.ts): they
    // may import the contract's types, the ground (vocabulary, platform) and the CLI's command types, nothing below.
    files: ['src/cli/commands/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ELECTRON_ONLY,
            { name: 'better-sqlite3', message: CONTRACT_ONLY },
            { name: 'pg', message: CONTRACT_ONLY },
          ],
          patterns: [
            NOT_THE_SHELLS,
            {
              group: [
                ...LAYERS.filter((l) => l !== 'cli' && !GROUND.includes(l)).map((l) => `**/${l}/**`),
                '!**/api/contract.ts',
              ],
              message: CONTRACT_ONLY,
            },
            { group: ['**/adapter.ts', '**/shell/**', '**/run.ts'], message: CONTRACT_ONLY },
          ],
        },
      ],
    },
  },
  {
    // The CLI's adapter, runner and shell commands: the contract, the CLI's entry and the app functions
    // meant for it. The service is made by the entry (src/app/cli-core.ts), never here.
    files: ['src/cli/*.ts', 'src/cli/shell/**/*.ts'],
    rules: shellRule('src/cli/', [
      {
        group: ['**/api/service.ts', '**/api/ports.ts', '**/api/handlers/**'],
        message:
          'The CLI makes no service of its own: its entry in src/app/ (cli-core.ts) opens it, and the CLI calls it through the contract (issue 50).',
      },
    ]),
  },
  // The browser host and the Electron app: the contract and their part of the composition root.
  { files: ['src/host/**/*.ts'], rules: shellRule('src/host/') },
  { files: ['electron/**/*.ts'], rules: shellRule('electron/') },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ELECTRON_ONLY,
            { name: 'better-sqlite3', message: RENDERER_STORE },
            { name: 'pg', message: RENDERER_STORE },
          ],
          patterns: [
            {
              group: ['**/src/store', '**/src/store/**'],
              message: RENDERER_STORE,
            },
            { group: ['node:*'], message: 'The renderer is web code: no Node modules.' },
          ],
        },
      ],
    },
  },
);
