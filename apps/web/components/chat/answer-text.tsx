'use client';

import { headingsAfterTitle } from '@lumina/shared';
import type { Citation, RetrievedPassage } from '@lumina/shared';
import { formatPages, resolveMarker } from '../../lib/citations';
import { Markdown } from '../../lib/markdown';
import './chat.css';
import './answer-text.css';

export interface AnswerTextProps {
  text: string;
  citations: readonly Citation[];
  passages: readonly RetrievedPassage[];
  dropped: readonly number[];
  /** The server sent its citation mapping (the `citations` event, or a stored answer). */
  citationsKnown: boolean;
  streaming: boolean;
  onOpenCitation: (marker: number, markerIndex: number) => void;
}

function describe(title: string, headingPath: readonly string[], pages: string): string {
  const place = [title, ...headingsAfterTitle(title, headingPath)].join(' › ');
  return pages ? `${place}, ${pages}` : place;
}

/**
 * The answer, its Markdown rendered as React elements (lists, code, links, emphasis; never raw HTML),
 * with its [n] markers as buttons that open the cited passage. Markers the server dropped (they named
 * no passage) stay visible but struck through, so nothing is silently hidden.
 */
export function AnswerText({
  text,
  citations,
  passages,
  dropped,
  citationsKnown,
  streaming,
  onOpenCitation,
}: AnswerTextProps) {
  const renderMarker = (marker: number, start: number) => {
    const resolved = resolveMarker(marker, citations, passages, dropped, citationsKnown);
    if (resolved.dropped) {
      return (
        <span className="cite cite-dropped" title="This marker named no passage, so the server dropped it.">
          <s>[{marker}]</s>
          <span className="visually-hidden"> (invalid citation, dropped)</span>
        </span>
      );
    }
    const title = resolved.citation?.title ?? resolved.passage?.title;
    const path = resolved.citation?.headingPath ?? resolved.passage?.headingPath ?? [];
    const pages = formatPages(resolved.citation?.pages ?? resolved.passage?.pages);
    return (
      <button
        type="button"
        className="cite"
        data-marker={marker}
        aria-haspopup="dialog"
        aria-label={`Source ${marker}${title ? `: ${describe(title, path, pages)}` : ''}`}
        title={title ? describe(title, path, pages) : `Source ${marker}`}
        onClick={() => onOpenCitation(marker, start)}
      >
        {marker}
      </button>
    );
  };
  return (
    <div className="answer-text">
      <Markdown text={text} renderMarker={renderMarker} />
      {streaming ? <span className="caret" aria-hidden="true" /> : null}
    </div>
  );
}
