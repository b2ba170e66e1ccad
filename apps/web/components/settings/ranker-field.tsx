'use client';

import { RANKERS, type Ranker } from '@lumina/shared';
import './settings.css';

const DESCRIPTIONS: Record<Ranker, { label: string; hint: string }> = {
  dense: { label: 'Dense', hint: 'Matches meaning with vector similarity.' },
  bm25: { label: 'BM25', hint: 'Matches the words you use (keyword search).' },
  hybrid: { label: 'Hybrid', hint: 'Runs both and fuses the rankings.' },
};

export interface RankerFieldProps {
  value: Ranker;
  onChange: (value: Ranker) => void;
}

export function RankerField({ value, onChange }: RankerFieldProps) {
  return (
    <fieldset className="field field-radios">
      <legend>Ranker</legend>
      {RANKERS.map((ranker) => {
        const id = `ranker-${ranker}`;
        return (
          <div className="radio-option" key={ranker}>
            <input
              id={id}
              type="radio"
              name="ranker"
              value={ranker}
              checked={value === ranker}
              aria-describedby={`${id}-hint`}
              onChange={() => onChange(ranker)}
            />
            <div className="field-text">
              <label htmlFor={id}>{DESCRIPTIONS[ranker].label}</label>
              <p id={`${id}-hint`} className="field-hint">
                {DESCRIPTIONS[ranker].hint}
              </p>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
