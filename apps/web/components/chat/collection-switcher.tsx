'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { useCollections } from '../../hooks/use-collections';
import { selectionLabel, writableCollections } from '../../lib/collections';
import { plural } from '../../lib/format';
import { useCollectionsStore } from '../../store/collections.store';
import './chat.css';

export interface CollectionSwitcherProps {
  /** While an answer streams the pick cannot change (it applies to the next question). */
  disabled?: boolean;
}

/**
 * Which collections the next question searches: every one, or the ones ticked. "All collections" sends
 * no collectionIds in a new conversation and every live collection's id in an open one (see
 * chatCollectionIds). Drawn only when the server has collections.
 */
export function CollectionSwitcher({ disabled }: CollectionSwitcherProps) {
  const { collections, error, missing, reload } = useCollections();
  const selected = useCollectionsStore((state) => state.selected);
  const toggle = useCollectionsStore((state) => state.toggle);
  const selectAll = useCollectionsStore((state) => state.selectAll);
  const details = useRef<HTMLDetailsElement>(null);

  // Closes on a click elsewhere and on Escape, like a menu.
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current;
      if (!element?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return;
        element.open = false;
        element.querySelector('summary')?.focus();
        return;
      }
      if (!element.contains(event.target as Node | null)) element.open = false;
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, []);

  if (missing) return null;
  const label = selectionLabel(selected, collections);
  const choices = writableCollections(collections ?? []);
  const all = selected.length === 0;

  return (
    <details ref={details} className="collection-switcher" data-testid="collection-switcher">
      <summary className="button button-secondary" aria-label={`Collections searched: ${label}`}>
        <span className="collection-switcher-label">{label}</span>
        {!all ? (
          <span className="badge-count" aria-hidden="true">
            {selected.length}
          </span>
        ) : null}
      </summary>
      <div className="collection-switcher-panel">
        <fieldset disabled={disabled}>
          <legend>Search in</legend>
          <ul className="checkbox-list">
            <li>
              <input id="collection-choice-all" type="checkbox" checked={all} onChange={() => selectAll()} />
              <label htmlFor="collection-choice-all">All collections</label>
            </li>
            {choices.map((collection) => {
              const id = `collection-choice-${collection.id}`;
              return (
                <li key={collection.id}>
                  <input
                    id={id}
                    type="checkbox"
                    checked={selected.includes(collection.id)}
                    onChange={(event) => toggle(collection.id, event.target.checked)}
                  />
                  <label htmlFor={id}>
                    {collection.name}{' '}
                    <span className="muted">{plural(collection.documentCount, 'document')}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
        {collections === null && !error ? <p className="field-hint">Loading the collections…</p> : null}
        {error ? (
          <p className="notice notice-bad" role="alert">
            {error}{' '}
            <button type="button" className="button button-secondary button-small" onClick={reload}>
              Try again
            </button>
          </p>
        ) : null}
        <p className="field-hint">
          {disabled ? 'Applies to the next question. ' : null}
          <Link href="/collections">Manage collections</Link>
        </p>
      </div>
    </details>
  );
}
