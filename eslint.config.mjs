import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

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

/** The server's one entry for the tools: only tools/ may import it (it bypasses the app-import ban). */
const SERVER_CORE = {
  name: '@lumina/server-core',
  message: "The server's entry for tools (tools/bench); the server itself imports its files directly.",
};
const TESTING_LLM = { name: '@lumina/testing-llm', message: 'Test tooling: only tests and tools import it.' };

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
    // Only the tools import the server's entry for tools (the blocks below repeat it where they set
    // their own restricted imports).
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['tools/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [SERVER_CORE] }] },
  },
  {
    // The pure libs (layer:pure: shared, rag, eval) do no I/O of their own; Node's built-ins are not in the
    // project graph, so the module-boundary rule cannot ban them. The test tooling serves HTTP.
    files: ['libs/**/*.ts'],
    ignores: ['libs/testing-llm/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...NODE_IO.map((name) => ({
              name,
              message: 'A pure lib does no I/O: take a port (e.g. DatasetFiles) and let the app give it.',
            })),
            SERVER_CORE,
          ],
        },
      ],
    },
  },
  {
    // Test tooling is for tests, browser tests and the command-line tools (benchmarks, evaluation
    // suites that script their model), never for the code that serves users.
    files: ['apps/server/src/**/*.ts', 'apps/web/**/*.ts', 'apps/web/**/*.tsx'],
    ignores: ['**/*.spec.ts', 'apps/server/src/test/**', 'apps/server/src/cli/**', 'apps/web/e2e/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [TESTING_LLM, SERVER_CORE] }],
    },
  },
  {
    // The one place each process reads its environment.
    files: ['apps/server/src/config/load-env.ts', 'apps/web/lib/env.ts', 'apps/web/e2e/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
