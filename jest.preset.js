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
  },
  moduleNameMapper: {
    '^@lumina/shared$': path.join(__dirname, 'libs/shared/src/index.ts'),
    '^@lumina/rag$': path.join(__dirname, 'libs/rag/src/index.ts'),
    '^@lumina/eval$': path.join(__dirname, 'libs/eval/src/index.ts'),
  },
  testMatch: ['**/*.spec.ts'],
  ...overrides,
});
