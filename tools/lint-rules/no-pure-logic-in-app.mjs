import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';

/**
 * Flags a file of an app that is pure logic of more than `maxLines` lines: code that could live in a lib,
 * because it touches nothing the libs may not. A file is pure when it imports only the libs
 * (`@lumina/*`), its own folder's files and Node's computing modules (path, crypto, util, zlib, …), and
 * reads no I/O global (process, fetch, console, require). Any other import makes it an adapter: a
 * framework (Nest), the database (TypeORM, pg), the queues (BullMQ, Redis), Node's I/O modules, or a
 * third-party package (the libs depend on none). So does a file of its own folder that is one, however
 * deep the local imports go (a helper over the database connection is not pure). Its lines are counted without blank lines, comments,
 * imports and type declarations (interfaces, type aliases), so a file of shapes is not logic.
 */

/** Node's modules that compute without I/O: a lib may use them. */
const PURE_NODE_MODULES = new Set([
  'assert',
  'assert/strict',
  'buffer',
  'crypto',
  'events',
  'path',
  'path/posix',
  'path/win32',
  'perf_hooks',
  'querystring',
  'string_decoder',
  'url',
  'util',
  'util/types',
  'zlib',
]);
const NODE_MODULES = new Set(builtinModules);
/** Globals that reach outside the process's memory (or load code by name). */
const IO_GLOBALS = new Set(['process', 'fetch', 'console', 'require', 'XMLHttpRequest', 'WebSocket']);

function importKind(source) {
  if (source.startsWith('.') || source.startsWith('/')) return 'local';
  if (source === '@lumina' || source.startsWith('@lumina/')) return 'lib';
  const name = source.startsWith('node:') ? source.slice('node:'.length) : source;
  if (NODE_MODULES.has(name)) return PURE_NODE_MODULES.has(name) ? 'lib' : 'adapter';
  return 'adapter';
}

const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
const IO_USE = /\bprocess\.|\bfetch\(|\bconsole\./;
/** Whether a local file (by path) is an adapter, following its local imports; cached for the lint run. */
const localAdapters = new Map();

function resolveLocal(from, source) {
  const base = resolve(dirname(from), source);
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find(
    (path) => /\.tsx?$/.test(path) && existsSync(path),
  );
}

function isLocalAdapter(path) {
  if (localAdapters.has(path)) return localAdapters.get(path);
  localAdapters.set(path, false); // an import cycle adds nothing
  const text = readFileSync(path, 'utf8');
  let adapter = IO_USE.test(text);
  for (const [, source] of text.matchAll(SPECIFIERS)) {
    if (adapter) break;
    const kind = importKind(source);
    if (kind === 'adapter') adapter = true;
    else if (kind === 'local') {
      const file = resolveLocal(path, source);
      adapter = file !== undefined && isLocalAdapter(file);
    }
  }
  localAdapters.set(path, adapter);
  return adapter;
}

/** Declarations that hold no logic: imports, re-exports and types. */
function isShapeOnly(node) {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
    case 'TSImportEqualsDeclaration':
    case 'TSInterfaceDeclaration':
    case 'TSTypeAliasDeclaration':
    case 'TSDeclareFunction':
      return true;
    case 'ExportNamedDeclaration':
      return node.source != null || (node.declaration != null && isShapeOnly(node.declaration));
    case 'ExportDefaultDeclaration':
      return isShapeOnly(node.declaration);
    default:
      return node.declare === true;
  }
}

export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'Pure logic of more than a few dozen lines belongs in a lib, not in an app.' },
    schema: [
      {
        type: 'object',
        properties: { maxLines: { type: 'integer', minimum: 0 } },
        additionalProperties: false,
      },
    ],
    messages: {
      pure:
        'Pure logic ({{lines}} lines of code; it imports no framework, database, queue, I/O module or package): ' +
        'move it to a lib (libs/rag, libs/eval or libs/shared), or give the reason it stays in the exemptions of ' +
        'eslint.config.mjs.',
    },
  },
  create(context) {
    const maxLines = context.options[0]?.maxLines ?? 50;
    const sourceCode = context.sourceCode;
    let adapter = false;
    const markImport = (source) => {
      if (typeof source !== 'string') return;
      const kind = importKind(source);
      if (kind === 'adapter') adapter = true;
      else if (kind === 'local' && !adapter) {
        const file = resolveLocal(context.filename, source);
        if (file !== undefined && isLocalAdapter(file)) adapter = true;
      }
    };
    return {
      ImportDeclaration: (node) => markImport(node.source.value),
      ExportAllDeclaration: (node) => markImport(node.source.value),
      ExportNamedDeclaration: (node) => node.source && markImport(node.source.value),
      ImportExpression: (node) => {
        if (node.source.type === 'Literal') markImport(node.source.value);
        else adapter = true;
      },
      TSExternalModuleReference: (node) => markImport(node.expression.value),
      'Program:exit'(program) {
        const globals = sourceCode.getScope(program);
        const through = globals.through.map((reference) => reference.identifier.name);
        if (adapter || through.some((name) => IO_GLOBALS.has(name))) return;
        const shapes = program.body
          .filter(isShapeOnly)
          .map((node) => [node.loc.start.line, node.loc.end.line]);
        const lines = new Set();
        for (const token of sourceCode.ast.tokens) {
          for (let line = token.loc.start.line; line <= token.loc.end.line; line++) {
            if (!shapes.some(([start, end]) => line >= start && line <= end)) lines.add(line);
          }
        }
        if (lines.size > maxLines) {
          context.report({
            node: program,
            loc: { line: 1, column: 0 },
            messageId: 'pure',
            data: { lines: lines.size },
          });
        }
      },
    };
  },
};
