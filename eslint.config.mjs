import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import noPureLogicInApp from './tools/lint-rules/no-pure-logic-in-app.mjs';

const NEST_AND_IO = ['@nestjs/*', 'typeorm', 'bullmq', 'ioredis', 'pg', 'nestjs-pino', 'express'];
/** Node's I/O modules: a pure lib reads and writes through ports (e.g. libs/eval's DatasetFiles). */
const NODE_IO = [
  'fs',
  'fs/promises',
  'node:fs',
  'node:fs/promises',
  'child_process',
  'node:child_process',
  'net',
  'node:net',
  'http',
  'node:http',
  'https',
  'node:https',
];

/** The ports' fakes (`@lumina/rag/testing`) serve specs only: production code never imports them. */
const TEST_FAKES = {
  group: ['@lumina/rag/testing', '**/testing', '**/testing/*'],
  message: 'Test fakes are for specs: production code takes the real ports.',
};
/** Files that may use the fakes: specs, the integration suites and their helpers, the fakes themselves. */
const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.spec.tsx',
  '**/testing/**',
  'apps/server/src/test/**',
  'apps/web/e2e/**',
];
const NODE_IO_PATHS = NODE_IO.map((name) => ({
  name,
  message: 'A pure lib does no I/O: take a port (e.g. DatasetFiles) and let the app give it.',
}));

/** Pure files that stay in apps/server, each with its reason (see the no-pure-logic-in-app rule below). */
const PURE_LOGIC_EXEMPTIONS = [
  // The model endpoints' retry policy: it retries the HTTP adapters' LlmRequestError (status, Retry-After),
  // so it is part of the adapters in providers/, not logic a lib has a use for.
  'apps/server/src/providers/retry-with-backoff.ts',
  // What the upload stream learns about the bytes as multer writes them to disk (hash, UTF-8, edges): the
  // HTTP upload adapter's own bookkeeping.
  'apps/server/src/modules/ingestion/uploads/byte-inspector.ts',
  // The accepted upload formats are part of the HTTP contract (the web declares the same extensions): they
  // move to libs/shared with the rest of the wire contract.
  'apps/server/src/modules/ingestion/uploads/supported-formats.ts',
  // Unpacks a .docx and fails with the ingestion's UnreadableDocumentError, the permanent failure the job
  // and the parser thread read; it moves once that error is a domain error a lib may throw.
  'apps/server/src/modules/ingestion/parsers/docx/zip-container.ts',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/.next/**',
      '**/node_modules/**',
      '**/tmp/**',
      '**/.data/**',
      '**/next-env.d.ts',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='only']",
          message: 'Committed .only skips the rest of the suite.',
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration from the env schema (config/), not process.env.',
        },
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:rag', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:eval', onlyDependOnLibsWithTags: ['scope:rag', 'scope:shared'] },
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared'] },
            {
              sourceTag: 'scope:server',
              onlyDependOnLibsWithTags: ['scope:rag', 'scope:eval', 'scope:shared'],
            },
            { sourceTag: 'layer:pure', bannedExternalImports: NEST_AND_IO },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [TEST_FAKES] }] },
  },
  {
    // The pure libs (layer:pure: shared, rag, eval) do no I/O of their own; Node's built-ins are not in the
    // project graph, so the module-boundary rule cannot ban them.
    files: ['libs/**/*.ts'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { paths: NODE_IO_PATHS, patterns: [TEST_FAKES] }] },
  },
  {
    files: ['libs/**/*.spec.ts', 'libs/**/testing/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: NODE_IO_PATHS }] },
  },
  {
    // apps/server is Nest, database, queues and HTTP: a file of pure logic over about 50 lines (one that
    // could live in a lib) belongs in libs/rag, libs/eval or libs/shared. Specs, the integration suites
    // and the migrations are not counted.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.spec.ts',
      'apps/server/src/test/**',
      'apps/server/src/database/migrations/**',
      // The CLI is being split into thin commands and a benchmarks project of its own; it is exempt until
      // that split lands.
      'apps/server/src/cli/**',
      ...PURE_LOGIC_EXEMPTIONS,
    ],
    plugins: { lumina: { rules: { 'no-pure-logic-in-app': noPureLogicInApp } } },
    rules: { 'lumina/no-pure-logic-in-app': ['error', { maxLines: 50 }] },
  },
  {
    // The web app's lib/ sits under its stores: it takes values and callbacks, never a store (the stores,
    // hooks and components import lib/, not the other way round).
    files: ['apps/web/lib/**/*.ts', 'apps/web/lib/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/store', '**/store/**'],
              message: 'lib/ must not import a store: pass the value or a callback in, or move the code up.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one place each process reads its environment.
    files: ['apps/server/src/config/load-env.ts', 'apps/web/lib/env.ts', 'apps/web/e2e/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
