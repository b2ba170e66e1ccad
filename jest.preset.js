/** Shared jest settings: ts-jest against each project's spec tsconfig, path aliases from tsconfig.base. */
const path = require('node:path');

/** Packages that ship ES modules only (eld, the language detection, and any a project names). */
const esmOnly = (more) => ['eld', ...more].join('|');

/** `moreEsmOnly`: a project's ES-module-only packages, transpiled to CommonJS for the test runner. */
module.exports = (projectDir, overrides = {}, moreEsmOnly = []) => ({
  rootDir: projectDir,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  transform: {
    '^.+\\.tsx?$': [
      'ts-jest',
      { tsconfig: path.join(projectDir, 'tsconfig.spec.json'), isolatedModules: false },
    ],
    // ES modules only: transpiled to CommonJS for the test runner.
    [`/node_modules/(${esmOnly(moreEsmOnly)})/.+\\.js$`]: [
      'ts-jest',
      {
        tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022', esModuleInterop: true },
        isolatedModules: true,
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly(moreEsmOnly)})/)`],
  moduleNameMapper: {
    '^@lumina/shared$': path.join(__dirname, 'libs/shared/src/index.ts'),
    '^@lumina/rag$': path.join(__dirname, 'libs/rag/src/index.ts'),
    '^@lumina/rag/testing$': path.join(__dirname, 'libs/rag/src/testing/index.ts'),
    '^@lumina/eval$': path.join(__dirname, 'libs/eval/src/index.ts'),
    '^@lumina/testing-llm$': path.join(__dirname, 'libs/testing-llm/src/index.ts'),
    '^@lumina/server-core$': path.join(__dirname, 'apps/server/src/core/index.ts'),
  },
  testMatch: ['**/*.spec.ts'],
  ...overrides,
});
