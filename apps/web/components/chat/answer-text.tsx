'use client';

import { Fragment } from 'react';
import type { Citation, SearchResult } from '../../lib/api-types';
import { formatPages, resolveMarker, segmentAnswer } from '../../lib/citations';

export interface AnswerTextProps {
  text: string;
  citations: readonly Citation[];
  results: readonly SearchResult[];
  dropped: readonly number[];
  /** The server sent its citation mapping (the `citations` event, or a stored answer). */
  citationsKnown: boolean;
  streaming: boolean;
  onOpenCitation: (marker: number, markerIndex: number) => void;
}

function describe(title: string, headingPath: readonly string[], pages: string): string {
  return [title, ...headingPath].join(' › ') + (pages ? `, ${pages}` : '');
}

/**
 * The answer with its [n] markers as buttons that open the cited passage. Markers the server
 * dropped (they named no passage) stay visible but struck through, so nothing is silently hidden.
 */
export function AnswerText({
  text,
  citations,
  results,
  dropped,
  citationsKnown,
  streaming,
  onOpenCitation,
}: AnswerTextProps) {
  const segments = segmentAnswer(text);
  return (
    <p className="answer-text">
      {segments.map((segment, index) => {
        if (segment.type === 'text') return <Fragment key={index}>{segment.text}</Fragment>;
        const resolved = resolveMarker(segment.marker, citations, results, dropped, citationsKnown);
        if (resolved.dropped) {
          return (
            <span
              key={index}
              className="cite cite-dropped"
              title="This marker named no passage, so the server dropped it."
            >
              <s>[{segment.marker}]</s>
              <span className="visually-hidden"> (invalid citation, dropped)</span>
            </span>
          );
        }
        const title = resolved.citation?.title ?? resolved.passage?.documentTitle;
        const path = resolved.citation?.headingPath ?? resolved.passage?.headingPath ?? [];
        const pages = formatPages(resolved.citation?.pages ?? resolved.passage?.pages);
        return (
          <button
            key={index}
            type="button"
            className="cite"
            data-marker={segment.marker}
            aria-haspopup="dialog"
            aria-label={`Source ${segment.marker}${title ? `: ${describe(title, path, pages)}` : ''}`}
            title={title ? describe(title, path, pages) : `Source ${segment.marker}`}
            onClick={() => onOpenCitation(segment.marker, segment.start)}
          >
            {segment.marker}
          </button>
        );
      })}
      {streaming ? <span className="caret" aria-hidden="true" /> : null}
    </p>
  );
}
