'use client';

import { answerFigures, compareAnswerFigures, formatDifference } from '../../lib/answer-figures';
import type { AnswerMetrics } from '@lumina/shared';
import './evals.css';

/** A run's answer figures: false refusals, false answers, AUC, answer support, and who decided. */
export function AnswerFigures({ answers }: { answers: AnswerMetrics | null }) {
  if (!answers) {
    return (
      <p className="field-hint" data-testid="no-answer-figures">
        This run has no answer figures: it was made before they were measured.
      </p>
    );
  }
  return (
    <div className="answer-figures" data-testid="answer-figures">
      <dl className="answer-tiles">
        {answerFigures(answers).map((figure) => (
          <div key={figure.key} data-figure={figure.key} title={figure.hint}>
            <dt>{figure.label}</dt>
            <dd>
              {figure.text}
              {figure.detail ? <small>{figure.detail}</small> : null}
            </dd>
          </div>
        ))}
      </dl>
      <p className="field-hint">
        Decided by <span className="mono">{answers.modelVersion ?? 'no answerability model'}</span>
        {answers.generator ? (
          <>
            ; answers written by <span className="mono">{answers.generator}</span>
          </>
        ) : null}
        . Lower is better for the two refusal rates, higher for AUC and support.
      </p>
    </div>
  );
}

/** Two runs' answer figures side by side, with B − A and whether B did better. */
export function AnswerFiguresComparison({ a, b }: { a: AnswerMetrics | null; b: AnswerMetrics | null }) {
  const rows = compareAnswerFigures(a, b);
  if (rows.length === 0) {
    return <p className="field-hint">Neither run has answer figures.</p>;
  }
  return (
    <div className="table-wrap">
      <table className="data-table" aria-label="Answer figures of A and B">
        <thead>
          <tr>
            <th scope="col">Answer figure</th>
            <th scope="col" className="numeric">
              A
            </th>
            <th scope="col" className="numeric">
              B
            </th>
            <th scope="col" className="numeric">
              B − A
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-figure={row.key}>
              <td>{row.label}</td>
              <td className="numeric mono" data-label="A">
                {row.a?.text ?? '—'}
                {row.a?.detail ? <span className="cell-sub">{row.a.detail}</span> : null}
              </td>
              <td className="numeric mono" data-label="B">
                {row.b?.text ?? '—'}
                {row.b?.detail ? <span className="cell-sub">{row.b.detail}</span> : null}
              </td>
              <td
                className="numeric mono"
                data-label="B − A"
                data-sign={row.verdict === 'better' ? 'up' : row.verdict === 'worse' ? 'down' : 'zero'}
                title={row.verdict ? `B is ${row.verdict === 'same' ? 'the same' : row.verdict}` : undefined}
              >
                {formatDifference(row.key, row.difference)}
              </td>
            </tr>
          ))}
          <tr>
            <td>Answerability model</td>
            <td className="numeric mono" data-label="A">
              {a?.modelVersion ?? '—'}
            </td>
            <td className="numeric mono" data-label="B">
              {b?.modelVersion ?? '—'}
            </td>
            <td className="numeric" data-label="B − A">
              {a?.modelVersion === b?.modelVersion ? 'same' : 'changed'}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
