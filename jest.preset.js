/** Shared jest settings: ts-jest against each project's spec tsconfig, path aliases from tsconfig.base. */
const path = require('node:path');

module.exports = (projectDir, overrides = {}) => ({
  rootDir: projectDir,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { tsconfig: path.join(projectDir, 'tsconfig.spec.json'), isolatedModules: false },
    ],
    // eld (language detection) ships ES modules only: transpiled to CommonJS for the test runner.
    '/node_modules/eld/.+\\.js$': [
      'ts-jest',
      {
        tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022', esModuleInterop: true },
        isolatedModules: true,
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!eld/)'],
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
