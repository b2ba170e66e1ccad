'use client';

import { useState } from 'react';
import { itemOutcome } from '../../lib/answer-figures';
import type { EvalItemResult } from '@lumina/shared';
import { Markdown } from '../../lib/markdown';
import './evals.css';
import '../chat/answer-text.css';

const PAGE = 50;

function Answer({ text }: { text: string }) {
  return (
    <details className="item-answer">
      <summary>Answer</summary>
      <div className="answer-text">
        <Markdown text={text} renderMarker={(marker) => <span className="cite cite-static">{marker}</span>} />
      </div>
    </details>
  );
}

/** Per item: in scope or not, refused or answered (right or wrong), the score, support, the answer. */
export function ItemAnswers({ items }: { items: readonly EvalItemResult[] }) {
  const [shown, setShown] = useState(PAGE);
  if (items.length === 0) return <p className="field-hint">No items.</p>;
  return (
    <>
      <div className="table-wrap">
        <table className="data-table" aria-label="Answers per question">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Scope</th>
              <th scope="col">Outcome</th>
              <th scope="col" className="numeric">
                Score
              </th>
              <th scope="col">Supported</th>
            </tr>
          </thead>
          <tbody>
            {items.slice(0, shown).map((item) => {
              const outcome = itemOutcome(item);
              return (
                <tr
                  key={item.itemId}
                  data-item-id={item.itemId}
                  data-outcome={outcome.label}
                  data-correct={outcome.correct ? 'true' : 'false'}
                >
                  <td>
                    {item.question}
                    {item.answer ? <Answer text={item.answer} /> : null}
                  </td>
                  <td data-label="Scope">{item.inScope ? 'in scope' : 'out of scope'}</td>
                  <td data-label="Outcome">
                    <span className={`chip ${outcome.correct ? 'chip-good' : 'chip-bad'}`}>
                      {outcome.label}
                    </span>
                  </td>
                  <td className="numeric mono" data-label="Score">
                    {item.answerability
                      ? `${item.answerability.score.toFixed(2)} / ${item.answerability.threshold.toFixed(2)}`
                      : '—'}
                  </td>
                  <td data-label="Supported">
                    {item.supported === null ? '—' : item.supported ? 'yes' : 'no'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {items.length > shown ? (
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => setShown(shown + PAGE)}
        >
          Show {Math.min(PAGE, items.length - shown)} more of {items.length - shown}
        </button>
      ) : null}
      <p className="field-hint">
        Score: the answerability score against its threshold. Supported: the answer of an answered in-scope
        question cites a gold source (and quotes the gold answer).
      </p>
    </>
  );
}
