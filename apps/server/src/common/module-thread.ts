import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/** The workspace libraries a thread's module may import by alias. */
const ALIASES = ['@lumina/shared', '@lumina/rag', '@lumina/eval'] as const;

/**
 * Run from the TypeScript sources (the test suites, through ts-jest) a thread has no compiled module to
 * load: it first registers a loader that transpiles each .ts file with the TypeScript compiler (types are
 * not checked: the build does that) and resolves the @lumina/* aliases, then requires the module.
 */
const TYPESCRIPT_BOOTSTRAP = `
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { join } = require('node:path');
const Module = require('node:module');
const { workerData } = require('node:worker_threads');
const { aliases, cacheDir, entry, typescript } = workerData.__thread;
let ts;
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] ?? request, ...rest);
};
// Transpiled files are cached by content: a thread that starts again skips loading the compiler.
Module._extensions['.ts'] = function (module, filename) {
  const source = readFileSync(filename, 'utf8');
  const cached = join(cacheDir, createHash('sha256').update(filename).update(source).digest('hex') + '.js');
  let output;
  try {
    output = readFileSync(cached, 'utf8');
  } catch {
    ts ??= require(typescript);
    output = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
      },
    }).outputText;
    mkdirSync(cacheDir, { recursive: true });
    const partial = cached + '.' + process.pid + '.' + require('node:worker_threads').threadId;
    writeFileSync(partial, output);
    renameSync(partial, cached);
  }
  module._compile(output, filename);
};
require(entry);
`;

/**
 * Starts a worker thread on one of this code base's modules, given its path without extension: the
 * compiled .js file when there is one (the build), else the .ts source (the test suites).
 */
export function startModuleThread(modulePath: string, options: WorkerOptions = {}): Worker {
  if (existsSync(`${modulePath}.js`)) return new Worker(`${modulePath}.js`, options);
  const entry = `${modulePath}.ts`;
  if (!existsSync(entry)) throw new Error(`no thread module at ${modulePath}(.js|.ts)`);
  const aliases = Object.fromEntries(ALIASES.map((alias) => [alias, require.resolve(alias)]));
  return new Worker(TYPESCRIPT_BOOTSTRAP, {
    ...options,
    eval: true,
    workerData: {
      ...(options.workerData as object | undefined),
      __thread: {
        aliases,
        entry,
        typescript: require.resolve('typescript'),
        cacheDir: join(tmpdir(), 'lumina-thread-transpiled'),
      },
    },
  });
}
