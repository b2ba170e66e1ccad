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
          allow: [],
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
            { sourceTag: 'layer:pure', bannedExternalImports: NEST_AND_IO },
          ],
        },
      ],
    },
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
          paths: NODE_IO.map((name) => ({
            name,
            message: 'A pure lib does no I/O: take a port (e.g. DatasetFiles) and let the app give it.',
          })),
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
      'no-restricted-imports': ['error', { paths: [TESTING_LLM] }],
    },
  },
  {
    // The one place each process reads its environment.
    files: ['apps/server/src/config/load-env.ts', 'apps/web/lib/env.ts', 'apps/web/e2e/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
