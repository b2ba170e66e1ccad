'use client';

import { useRef, useState, type DragEvent } from 'react';
import './documents.css';

export const ACCEPTED_EXTENSIONS = [
  '.txt',
  '.md',
  '.markdown',
  '.html',
  '.htm',
  '.pdf',
  '.docx',
  '.json',
  '.jsonl',
];

export interface UploadDropzoneProps {
  disabled?: boolean;
  busy?: boolean;
  onFiles: (files: File[]) => void;
}

/** Drop files here, or choose them: both ways reach the same upload. */
export function UploadDropzone({ disabled, busy, onFiles }: UploadDropzoneProps) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const accept = (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    if (files.length > 0 && !disabled) onFiles(files);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    accept(event.dataTransfer.files);
  };

  return (
    <div
      className="dropzone"
      data-over={over ? 'true' : undefined}
      data-testid="dropzone"
      onDragEnter={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <p className="dropzone-title">Drop files here to add them</p>
      <p className="field-hint">
        Text, Markdown, HTML, PDF (with a text layer), Word (.docx), and BEIR-style JSON/JSONL. Several at
        once is fine.
      </p>
      <div>
        <input
          ref={input}
          id="upload-files"
          type="file"
          multiple
          accept={ACCEPTED_EXTENSIONS.join(',')}
          className="visually-hidden file-input"
          disabled={disabled}
          onChange={(event) => {
            accept(event.target.files);
            event.target.value = '';
          }}
        />
        <label htmlFor="upload-files" className="button button-primary" aria-disabled={disabled}>
          {busy ? 'Uploading…' : 'Choose files'}
        </label>
      </div>
    </div>
  );
}
