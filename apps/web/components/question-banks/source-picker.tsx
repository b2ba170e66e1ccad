'use client';

import { DEFAULT_SETTINGS, type SearchSettings } from '@lumina/shared';
import { useState } from 'react';
import { useDebounced, useResource } from '../../hooks/use-resource';
import { useApiClient } from '../../hooks/use-api-client';
import { hasSourceLine, type PickedSource } from '../../lib/item-form';
import { formatPages } from '../../lib/citations';
import { passageLabel, passageSourceLabel } from '../../lib/source-labels';
import { ErrorNotice } from '../ui/error-notice';
import './question-banks.css';

/** A quick lexical search: no model calls, so results follow the typing. */
const PICKER_SETTINGS: SearchSettings = {
  ...DEFAULT_SETTINGS,
  ranker: 'bm25',
  enableQueryExpansion: false,
  enableHyDE: false,
  enableRerank: false,
  minScore: 0,
  topK: 8,
  documentIds: [],
};

export interface SourcePickerProps {
  /** Prefix of the fields' ids, unique on the page. */
  idPrefix: string;
  /** The sources box as it stands, to mark what is already added. */
  sources: string;
  /** Adds a source; `label` names it for the list of picked sources. */
  onPick: (source: PickedSource, label: string) => void;
}

/**
 * Find expected sources by searching the library as you type: each passage shows its document's title,
 * heading path, page and first words (passages under one heading differ), and adds either the passage
 * itself or its whole document.
 */
export function SourcePicker({ idPrefix, sources, onPick }: SourcePickerProps) {
  const api = useApiClient();
  const [text, setText] = useState('');
  const query = useDebounced(text.trim(), 250);
  const results = useResource(query.length >= 2 ? `pick|${query}` : null, (signal) =>
    api.search(query, PICKER_SETTINGS, { signal }),
  );
  const found = query.length >= 2 ? (results.data?.results ?? []) : [];

  return (
    <div className="source-picker">
      <label htmlFor={`${idPrefix}-find`}>Find sources in the library</label>
      <input
        id={`${idPrefix}-find`}
        type="search"
        value={text}
        placeholder="Words from the passage that answers the question"
        autoComplete="off"
        onChange={(e) => setText(e.target.value)}
      />
      <ErrorNotice error={query.length >= 2 ? results.error : null} />
      {query.length >= 2 && results.data && found.length === 0 && !results.loading ? (
        <p className="field-hint">No passage matches &ldquo;{query}&rdquo;.</p>
      ) : null}
      {found.length > 0 ? (
        <ul className="picker-results" aria-label="Matching passages" aria-busy={results.loading}>
          {found.map((result) => {
            const label = passageSourceLabel(
              result.documentTitle,
              result.headingPath,
              result.text,
              result.pages,
            );
            const passageAdded = hasSourceLine(sources, { chunkId: result.chunkId });
            const documentAdded = hasSourceLine(sources, { documentId: result.documentId });
            return (
              <li key={result.chunkId} className="picker-result" data-chunk-id={result.chunkId}>
                <span className="picker-label">
                  {passageLabel(result.documentTitle, result.headingPath)}
                  {result.pages ? `, ${formatPages(result.pages)}` : ''}
                </span>
                <span className="picker-snippet">{snippet(result.text)}</span>
                <span className="picker-actions">
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Add the passage ${label}`}
                    disabled={passageAdded}
                    onClick={() => onPick({ chunkId: result.chunkId }, label)}
                  >
                    {passageAdded ? 'Passage added' : 'Add passage'}
                  </button>
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    aria-label={`Add the document ${result.documentTitle}`}
                    disabled={documentAdded}
                    onClick={() => onPick({ documentId: result.documentId }, result.documentTitle)}
                  >
                    {documentAdded ? 'Document added' : 'Add document'}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}
