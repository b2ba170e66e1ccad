'use client';

import { explainVerdict, verdictSentence } from '../../lib/answerability';
import type { AnswerabilityVerdict } from '@lumina/shared';
import './chat.css';

function signed(value: number): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(2)}`;
}

/**
 * The answerability decision of one search: score against threshold, the verdict, the model version,
 * and each feature in plain words with its value and its contribution, strongest first.
 */
export function AnswerabilityFacts({ verdict }: { verdict: AnswerabilityVerdict }) {
  const rows = explainVerdict(verdict);
  const longest = Math.max(0.001, ...rows.map((row) => Math.abs(row.contribution)));
  return (
    <section
      aria-label="Answerability"
      className="answerability"
      data-answerable={verdict.answerable ? 'true' : 'false'}
    >
      <h4>
        Answerability{' '}
        <span className={`chip ${verdict.answerable ? 'chip-good' : 'chip-bad'}`}>
          {verdict.answerable ? 'answerable' : 'refused'}
        </span>
      </h4>
      <p className="field-hint">{verdictSentence(verdict)}</p>
      <dl className="trace-facts">
        <div>
          <dt>Score</dt>
          <dd className="mono" data-testid="answerability-score">
            {verdict.score.toFixed(2)}
          </dd>
        </div>
        <div>
          <dt>Threshold</dt>
          <dd className="mono" data-testid="answerability-threshold">
            {verdict.threshold.toFixed(2)}
          </dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd className="mono">{verdict.modelVersion}</dd>
        </div>
      </dl>
      {rows.length > 0 ? (
        <table className="data-table answerability-features" aria-label="What the decision weighed">
          <thead>
            <tr>
              <th scope="col">Evidence</th>
              <th scope="col" className="numeric">
                Pushes
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name} data-feature={row.name}>
                <td>
                  {row.words}: <span className="mono">{row.value === null ? '—' : row.value.toFixed(2)}</span>
                </td>
                <td
                  className="numeric mono"
                  data-sign={row.contribution > 0 ? 'up' : row.contribution < 0 ? 'down' : 'zero'}
                  title={row.contribution >= 0 ? 'towards answering' : 'towards refusing'}
                >
                  <span
                    className="contribution-bar"
                    aria-hidden="true"
                    style={{ inlineSize: `${Math.max(2, (Math.abs(row.contribution) / longest) * 100)}%` }}
                  />
                  {signed(row.contribution)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {verdict.terms.length > 0 ? (
        <p className="answerability-terms">
          The question&apos;s words, rarest first:{' '}
          {verdict.terms.map((term, index) => (
            <span key={term.term}>
              {index > 0 ? ', ' : null}
              <span className="mono">{term.term}</span>{' '}
              <span className="muted">
                ({term.df === 0 ? 'in no passage' : `in ${term.df} passage${term.df === 1 ? '' : 's'}`})
              </span>
            </span>
          ))}
        </p>
      ) : null}
      <p className="field-hint">
        Positive pushes towards answering, negative towards refusing (contributions to the log-odds).
      </p>
    </section>
  );
}
