import { ByteInspector } from './byte-inspector';
import { UPLOAD_FORMATS } from './supported-formats';
import type { UploadKind } from './supported-formats';
import { findUploadProblem } from './upload-problem';

const format = (kind: UploadKind) => UPLOAD_FORMATS.find((candidate) => candidate.kind === kind)!;

function problem(name: string, kind: UploadKind, bytes: Buffer): string | null {
  const inspector = new ByteInspector();
  inspector.update(bytes);
  return findUploadProblem(name, format(kind), inspector.finish());
}

describe('findUploadProblem', () => {
  it('accepts well-formed files of each kind', () => {
    expect(problem('a.txt', 'txt', Buffer.from('Hello there.'))).toBeNull();
    expect(problem('a.md', 'md', Buffer.from('# Title\n\nBody'))).toBeNull();
    expect(problem('a.pdf', 'pdf', Buffer.from('%PDF-1.7\n...objects...\n%%EOF\n'))).toBeNull();
    const zip = Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      Buffer.alloc(50),
      Buffer.from([0x50, 0x4b, 0x05, 0x06]),
      Buffer.alloc(18),
    ]);
    expect(problem('a.docx', 'docx', zip)).toBeNull();
  });

  it('names empty files', () => {
    expect(problem('empty.txt', 'txt', Buffer.alloc(0))).toBe('"empty.txt" is empty (0 bytes).');
    expect(problem('empty.pdf', 'pdf', Buffer.alloc(0))).toMatch(/empty/);
    expect(problem('blank.md', 'md', Buffer.from('  \n\n '))).toMatch(/no text/);
  });

  it('tells binary data and invalid UTF-8 apart', () => {
    expect(problem('garbage.txt', 'txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a]))).toMatch(
      /binary data/,
    );
    expect(problem('latin1.txt', 'txt', Buffer.from('caf\xe9', 'latin1'))).toMatch(/not valid UTF-8/);
  });

  it('spots a PDF that is not one, or was cut off', () => {
    expect(problem('fake.pdf', 'pdf', Buffer.from('just words'))).toMatch(/not a PDF file/);
    expect(problem('cut.pdf', 'pdf', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog'))).toMatch(
      /incomplete/,
    );
  });

  it('spots a .docx that is not a ZIP package, or was cut off', () => {
    expect(problem('fake.docx', 'docx', Buffer.from('plain words'))).toMatch(/not a Word/);
    expect(
      problem('cut.docx', 'docx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)])),
    ).toMatch(/incomplete/);
  });
});
