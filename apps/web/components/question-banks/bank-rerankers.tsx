'use client';

import { useState } from 'react';
import { RERANKER_LEARNERS, RERANKER_MIN_QUESTIONS, type RerankerLearner } from '@lumina/shared';
import { useAction } from '../../hooks/use-action';
import { useApiClient } from '../../hooks/use-api-client';
import { saveTextFile } from '../../lib/download';
import { activeRerankerSentence } from '../../lib/rerankers';
import { ErrorNotice } from '../ui/error-notice';
import { RerankerList } from './reranker-list';
import { useBankRerankers } from './use-bank-rerankers';

const LEARNER_LABELS: Record<RerankerLearner, string> = {
  linear: 'Linear (pairwise)',
  lambdamart: 'LambdaMART (boosted trees)',
};

/**
 * "Learned reranker": fits a reranker on the bank's questions in a background job, follows the fits,
 * shows how each measured by cross-validation on the bank, and switches one on or off.
 */
export function BankRerankers({ bankId, judgedItemCount }: { bankId: string; judgedItemCount: number }) {
  const api = useApiClient();
  const { shown, busy, error, reload, refresh } = useBankRerankers(bankId);
  const [learner, setLearner] = useState<RerankerLearner>('linear');
  const [activate, setActivate] = useState(true);
  const fit = useAction();
  const act = useAction();
  // Refused up front (the server says the same): a fit on fewer questions would fail or mean nothing.
  const tooFew = judgedItemCount < RERANKER_MIN_QUESTIONS;

  const run = (work: () => Promise<unknown>, fallback: string) =>
    act.run(async () => {
      await work();
      await refresh();
    }, fallback);

  return (
    <section className="card" aria-labelledby="rerankers-title" data-testid="bank-rerankers">
      <h2 id="rerankers-title">Learned reranker</h2>
      <p>
        Fits a reranker on this bank: every in-scope question with expected sources is searched as the chat
        searches, and a model learns to move the expected sources up among the candidates. It is measured by
        cross-validation on the bank (nDCG@10 of the fused order against the reranked one). It needs at least
        {` ${RERANKER_MIN_QUESTIONS} `}such questions whose expected sources the search finds.
      </p>
      <form
        className="form-grid"
        aria-label="Fit a reranker"
        onSubmit={(event) => {
          event.preventDefault();
          void fit.run(async () => {
            await api.fitReranker(bankId, { learner, activate });
            await refresh();
          }, 'The fit could not be started.');
        }}
      >
        <div className="field">
          <label htmlFor="reranker-learner">Learner</label>
          <select
            id="reranker-learner"
            value={learner}
            onChange={(e) => setLearner(e.target.value as RerankerLearner)}
          >
            {RERANKER_LEARNERS.map((name) => (
              <option key={name} value={name}>
                {LEARNER_LABELS[name]}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-toggle">
          <input
            id="reranker-activate"
            type="checkbox"
            className="switch"
            checked={activate}
            onChange={(e) => setActivate(e.target.checked)}
          />
          <div className="field-text">
            <label htmlFor="reranker-activate">Switch it on when fitted</label>
            <p className="field-hint">Not if it reranks worse than the fused order on this bank.</p>
          </div>
        </div>
        <div className="form-actions field-wide">
          <button
            type="submit"
            className="button button-primary"
            disabled={fit.busy || tooFew}
            aria-describedby={tooFew ? 'reranker-too-few' : undefined}
          >
            {fit.busy ? 'Starting…' : 'Fit a reranker'}
          </button>
          {tooFew ? (
            <span id="reranker-too-few" className="field-hint" data-testid="reranker-too-few">
              {judgedItemCount === 1
                ? 'Only 1 in-scope question has'
                : `Only ${judgedItemCount} in-scope questions have`}{' '}
              expected sources; fitting a reranker needs at least {RERANKER_MIN_QUESTIONS}.
            </span>
          ) : null}
        </div>
      </form>
      <ErrorNotice error={fit.error} />
      <ErrorNotice error={error} onRetry={reload} />
      <ErrorNotice error={act.error} />
      {shown ? (
        <>
          <p className="field-hint" data-testid="active-reranker">
            {activeRerankerSentence(shown.active)}
          </p>
          <RerankerList
            models={shown.models}
            active={shown.active}
            busy={busy || act.busy}
            onActivate={(id) => run(() => api.activateReranker(id), 'The reranker could not be switched on.')}
            onDeactivate={(id) =>
              run(() => api.deactivateReranker(id), 'The reranker could not be switched off.')
            }
            onDelete={(id) => run(() => api.deleteReranker(id), 'The reranker could not be deleted.')}
            onDownload={(id, version) =>
              act.run(async () => {
                const file = await api.downloadRerankerModel(id, version);
                saveTextFile(file.text, file.filename, file.type);
              }, 'The model could not be downloaded.')
            }
          />
        </>
      ) : null}
    </section>
  );
}
