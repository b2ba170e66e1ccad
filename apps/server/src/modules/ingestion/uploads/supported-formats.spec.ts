import { detectUploadFormat, unsupportedFormatMessage } from './supported-formats';

describe('detectUploadFormat', () => {
  it('goes by the extension, whatever the case', () => {
    expect(detectUploadFormat('Notes.TXT')?.kind).toBe('txt');
    expect(detectUploadFormat('guide.markdown')?.kind).toBe('md');
    expect(detectUploadFormat('page.htm', 'application/octet-stream')?.kind).toBe('html');
    expect(detectUploadFormat('paper.pdf')?.kind).toBe('pdf');
    expect(detectUploadFormat('letter.docx')?.kind).toBe('docx');
    expect(detectUploadFormat('corpus.jsonl')).toMatchObject({ kind: 'jsonl', corpus: true });
    expect(detectUploadFormat('corpus.json')).toMatchObject({ kind: 'json', corpus: true });
  });

  it('trusts an unknown extension over the declared type', () => {
    expect(detectUploadFormat('photo.png', 'text/plain')).toBeUndefined();
    expect(detectUploadFormat('old.doc')).toBeUndefined();
  });

  it('falls back to the media type when the name has no extension', () => {
    expect(detectUploadFormat('README', 'text/markdown; charset=utf-8')?.kind).toBe('md');
    expect(detectUploadFormat('blob', 'application/octet-stream')).toBeUndefined();
  });

  it('lists every supported extension in the 415 message', () => {
    const message = unsupportedFormatMessage('setup.exe');
    for (const extension of ['.txt', '.md', '.html', '.pdf', '.docx', '.jsonl', '.json']) {
      expect(message).toContain(extension);
    }
  });
});
