/**
 * One wire contract: the HTTP API's request and response types live in libs/shared, which the server's
 * DTOs implement and the web app's client reads. The web app declares no HTTP shape of its own: what
 * it builds from an answer (the tolerant readings in lib/api, the stores' state) is typed from the
 * shared types under a name of its own, so a name means one thing across the house.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const WEB = path.join(__dirname, '..', '..');
const SHARED = path.join(WEB, '..', '..', 'libs', 'shared', 'src');
const WEB_FOLDERS = ['app', 'components', 'hooks', 'lib', 'store', 'e2e'];
/** The transport and the reading helpers: no resource, so no wire type of their own to import. */
const NOT_RESOURCES = ['transport.ts', 'read.ts'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

type Named = ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.ClassDeclaration | ts.EnumDeclaration;

function isNamedDeclaration(node: ts.Node): node is Named {
  return (
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isEnumDeclaration(node)
  );
}

function isExported(node: ts.Node): boolean {
  return (ts.getModifiers(node as ts.HasModifiers) ?? []).some(
    (modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword,
  );
}

/** The type names libs/shared exports (every declaration its source files export; index.ts re-exports them all). */
function sharedTypeNames(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(SHARED).filter((name) => !name.endsWith('.spec.ts'))) {
    for (const statement of parse(file).statements) {
      if (isNamedDeclaration(statement) && statement.name && isExported(statement))
        names.add(statement.name.text);
    }
  }
  return names;
}

/** Every type, interface, class and enum the web app declares at the top of a file. */
function webDeclarations(): { name: string; file: string }[] {
  return WEB_FOLDERS.flatMap((folder) => sourceFiles(path.join(WEB, folder))).flatMap((file) =>
    parse(file)
      .statements.filter(isNamedDeclaration)
      .flatMap((statement) =>
        statement.name ? [{ name: statement.name.text, file: path.relative(WEB, file) }] : [],
      ),
  );
}

describe('one wire contract', () => {
  it('finds the shared types it guards', () => {
    const shared = sharedTypeNames();
    for (const name of ['SearchResponse', 'SearchHit', 'ChatAskRequest', 'ApiErrorBody', 'DocumentView']) {
      expect(shared).toContain(name);
    }
  });

  it('gives no web type the name of a shared one', () => {
    const shared = sharedTypeNames();
    const clashes = webDeclarations()
      .filter(({ name }) => shared.has(name))
      .map(({ name, file }) => `${file}: ${name}`);
    expect(clashes).toEqual([]);
  });

  it('takes every resource file’s wire types from libs/shared', () => {
    const folder = __dirname;
    const resources = readdirSync(folder).filter(
      (name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !NOT_RESOURCES.includes(name),
    );
    expect(resources.length).toBeGreaterThanOrEqual(8);
    const without = resources.filter(
      (name) => !/from '@lumina\/shared'/.test(readFileSync(path.join(folder, name), 'utf8')),
    );
    expect(without).toEqual([]);
  });
});
