'use client';

import type { Collection } from '@lumina/shared';
import {
  editorCollections,
  GRANT_CHOICES,
  grantChoiceOf,
  setGrantChoice,
  type GrantsDraft,
} from '../../lib/keys';
import './keys.css';

export interface GrantsEditorProps {
  /** Makes the radio names and ids unique on the page. */
  idPrefix: string;
  /** Every collection (null while the list loads). */
  collections: Collection[] | null;
  draft: GrantsDraft;
  onChange: (draft: GrantsDraft) => void;
  disabled?: boolean;
}

/** A user key's collections: for each one none, read or write (three radios in a row). */
export function GrantsEditor({ idPrefix, collections, draft, onChange, disabled }: GrantsEditorProps) {
  const rows = editorCollections(collections, draft);
  const hintId = `${idPrefix}-grants-hint`;
  return (
    <fieldset className="field field-wide grants-editor" aria-describedby={hintId}>
      <legend>Collections</legend>
      <p id={hintId} className="field-hint">
        Read: search, chat and read the documents. Write: also upload, move and delete documents, and manage
        the collection's question banks, evaluations and rerankers. A collection left at None stays invisible
        to the key.
      </p>
      {rows.length === 0 ? (
        <p className="field-hint">
          {collections === null ? 'Loading the collections…' : 'There are no collections to grant yet.'}
        </p>
      ) : (
        <ul className="grant-list">
          {rows.map((collection) => {
            const name = `${idPrefix}-${collection.id}`;
            const labelId = `${name}-label`;
            const value = grantChoiceOf(draft, collection.id);
            return (
              <li key={collection.id} className="grant-row" data-grant={value}>
                <span id={labelId} className="grant-name">
                  {collection.name}
                </span>
                <div className="segmented" role="radiogroup" aria-labelledby={labelId}>
                  {GRANT_CHOICES.map((choice) => (
                    <label
                      key={choice.value}
                      className="segmented-option"
                      htmlFor={`${name}-${choice.value}`}
                    >
                      <input
                        id={`${name}-${choice.value}`}
                        type="radio"
                        name={name}
                        value={choice.value}
                        checked={value === choice.value}
                        disabled={disabled}
                        onChange={() => onChange(setGrantChoice(draft, collection.id, choice.value))}
                      />
                      <span>{choice.label}</span>
                    </label>
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
