'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import type { Citation, RetrievedPassage } from '@lumina/shared';
import { citedRanges, formatPages, passageOffsets, type PassageOffsets } from '../../lib/citations';
import { renderPassage } from '../../lib/markdown';
import './chat.css';
import './answer-text.css';

export interface OpenCitation {
  marker: number;
  citation: Citation | null;
  passage: RetrievedPassage | null;
  /** The answer sentence that carries the marker. */
  claim: string;
  /** The text the marker closes (its paragraph's text since the previous marker). */
  quote: string;
}

export interface CitationDialogProps {
  open: OpenCitation | null;
  onClose: () => void;
}

interface PassageText extends PassageOffsets {
  text: string;
}

const CHUNK_PAGES_TO_SEARCH = 5;

/** The passage text for a citation: from the answer's retrieval, else from the document's chunks. */
function usePassageText(open: OpenCitation | null) {
  const api = useApiClient();
  const [state, setState] = useState<{ key: string; text: PassageText | null; error: string | null }>({
    key: '',
    text: null,
    error: null,
  });
  const chunkId = open?.citation?.chunkId ?? open?.passage?.chunkId ?? '';
  const documentId = open?.citation?.documentId ?? open?.passage?.documentId ?? '';
  const known = open?.passage ?? null;

  useEffect(() => {
    if (!open || known || !chunkId || !documentId) return;
    const controller = new AbortController();
    const find = async () => {
      for (let page = 1; page <= CHUNK_PAGES_TO_SEARCH; page += 1) {
        const chunks = await api.listChunks(documentId, { page, limit: 100 }, { signal: controller.signal });
        const chunk = chunks.items.find((item) => item.id === chunkId);
        if (chunk) return chunk;
        if (page >= chunks.totalPages) break;
      }
      return null;
    };
    find()
      .then((chunk) =>
        setState({
          key: chunkId,
          text: chunk ? { text: chunk.text, spanStart: chunk.spanStart, spanEnd: chunk.spanEnd } : null,
          error: chunk
            ? null
            : 'The cited passage is no longer in the document. It may have been re-indexed.',
        }),
      )
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          key: chunkId,
          text: null,
          error: isApiError(error) ? error.message : 'The cited passage could not be loaded.',
        });
      });
    return () => controller.abort();
  }, [api, open, known, chunkId, documentId]);

  if (known) return { text: { text: known.text, ...passageOffsets(known) }, error: null, loading: false };
  if (state.key === chunkId) return { text: state.text, error: state.error, loading: false };
  return { text: null, error: null, loading: Boolean(open) };
}

/**
 * The cited passage: document title, heading path, and the passage rendered as Markdown (code as code)
 * with the text the marker quotes marked.
 */
export function CitationDialog({ open, onClose }: CitationDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const passage = usePassageText(open);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const title = open?.citation?.title ?? open?.passage?.title ?? 'Cited passage';
  const headingPath = open?.citation?.headingPath ?? open?.passage?.headingPath ?? [];
  const pages = formatPages(open?.citation?.pages ?? open?.passage?.pages);
  const documentId = open?.citation?.documentId ?? open?.passage?.documentId ?? '';
  const chunkId = open?.citation?.chunkId ?? open?.passage?.chunkId ?? '';
  const text = passage.text?.text ?? '';
  const ranges =
    open && passage.text ? citedRanges(text, open.citation, passage.text, open.quote, open.claim) : [];

  return (
    <dialog
      ref={ref}
      className="modal citation-dialog"
      aria-labelledby="citation-title"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal-panel">
        <header className="modal-header">
          <div>
            <p className="eyebrow">Source {open?.marker}</p>
            <h2 id="citation-title">{title}</h2>
            {pages ? <p className="citation-pages muted">{pages}</p> : null}
          </div>
          <button type="button" className="button button-ghost" onClick={onClose} aria-label="Close passage">
            Close
          </button>
        </header>
        {headingPath.length > 0 ? (
          <nav aria-label="Heading path" className="heading-path">
            <ol>
              {headingPath.map((heading, index) => (
                <li key={`${index}-${heading}`}>{heading}</li>
              ))}
            </ol>
          </nav>
        ) : null}
        {passage.loading ? <p className="field-hint">Loading the passage…</p> : null}
        {passage.error ? <p className="notice notice-bad">{passage.error}</p> : null}
        {passage.text ? (
          <blockquote className="cited-passage" data-chunk-id={chunkId}>
            {renderPassage(text, ranges)}
          </blockquote>
        ) : null}
        {passage.text && ranges.length === 0 ? (
          <p className="field-hint">The whole passage is cited; no single sentence was singled out.</p>
        ) : null}
        {documentId ? (
          <p>
            <Link
              href={`/documents/${encodeURIComponent(documentId)}?chunk=${encodeURIComponent(chunkId)}`}
              onClick={onClose}
            >
              Open the document
            </Link>
          </p>
        ) : null}
      </div>
    </dialog>
  );
}
