'use client';

import { useState } from 'react';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import { useCollections } from '../../hooks/use-collections';
import { traceCollectionsLabel } from '../../lib/collections';
import type {
  AdaptiveExpansionDecision,
  ChatRetrievalEvent,
  FollowUpReason,
  RetrievalTrace,
} from '@lumina/shared';
import { parseBranch, timingLabel } from '../../lib/branches';
import { AnswerabilityFacts } from './answerability-facts';
import { formatPages } from '../../lib/citations';
import { HeadingTrail } from '../ui/heading-trail';
import './chat.css';

export interface RetrievalPanelProps {
  retrieval: ChatRetrievalEvent;
  /** The server's id of the answer, for the stored trace. */
  messageId: string | null;
  /** Cited passages are marked in the list. */
  citedChunkIds: ReadonlySet<string>;
}

/** Who wrote the variants or the HyDE passage: 'llm', 'prf', or whatever an older server named. */
function sourceLabel(source: string): string {
  if (source === 'llm') return 'written by the language model';
  if (source === 'prf') return 'offline: pseudo-relevance feedback from the top keyword matches';
  return 'source not reported';
}

function formatScore(value: number): string {
  return Math.abs(value) >= 100
    ? value.toFixed(0)
    : Math.abs(value) >= 1
      ? value.toFixed(2)
      : value.toFixed(3);
}

/** The stored trace of an answer, loaded when asked for. */
export function StoredTrace({ messageId }: { messageId: string }) {
  const api = useApiClient();
  const { collections } = useCollections();
  const [state, setState] = useState<
    | { phase: 'idle' }
    | { phase: 'loading' }
    | { phase: 'ready'; trace: RetrievalTrace }
    | { phase: 'error'; message: string }
  >({ phase: 'idle' });

  const load = () => {
    setState({ phase: 'loading' });
    api
      .getTrace(messageId)
      .then((trace) => setState({ phase: 'ready', trace }))
      .catch((error: unknown) =>
        setState({
          phase: 'error',
          message: isApiError(error) ? error.message : 'The trace could not be loaded.',
        }),
      );
  };

  if (state.phase === 'ready') {
    const { trace } = state;
    return (
      <dl className="trace-facts">
        <div>
          <dt>Question searched</dt>
          <dd>{trace.standaloneQuery ?? trace.query}</dd>
        </div>
        <div>
          <dt>Collections searched</dt>
          <dd data-testid="trace-collections">{traceCollectionsLabel(trace.collectionIds, collections)}</dd>
        </div>
        {trace.rewriteReason ? (
          <div>
            <dt>Why</dt>
            <dd>{FOLLOW_UP_REASONS[trace.rewriteReason]}</dd>
          </div>
        ) : null}
        {trace.model ? (
          <div>
            <dt>Model</dt>
            <dd>{trace.model}</dd>
          </div>
        ) : null}
        {trace.promptVersion ? (
          <div>
            <dt>Prompt</dt>
            <dd>{trace.promptVersion}</dd>
          </div>
        ) : null}
        <div>
          <dt>Not found</dt>
          <dd>{trace.notFound ? 'yes' : 'no'}</dd>
        </div>
        {trace.answerability ? (
          <div>
            <dt>Answerability</dt>
            <dd>
              {trace.answerability.answerable ? 'answerable' : 'refused'} (
              {trace.answerability.score.toFixed(2)} vs {trace.answerability.threshold.toFixed(2)},{' '}
              {trace.answerability.modelVersion})
            </dd>
          </div>
        ) : null}
        {trace.adaptive ? (
          <div>
            <dt>Adaptive</dt>
            <dd>
              {trace.adaptive.skipped.length
                ? `skipped ${trace.adaptive.skipped.join(', ')}`
                : `ran ${trace.adaptive.ran.join(', ')}`}
              {trace.adaptive.confidence !== null && trace.adaptive.threshold !== null
                ? ` (${trace.adaptive.confidence.toFixed(2)} vs ${trace.adaptive.threshold.toFixed(2)}, ${trace.adaptive.policyVersion})`
                : ' (no policy)'}
            </dd>
          </div>
        ) : null}
      </dl>
    );
  }
  return (
    <div className="trace-loader">
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={load}
        disabled={state.phase === 'loading'}
      >
        {state.phase === 'loading' ? 'Loading the stored trace…' : 'Load the stored trace'}
      </button>
      {state.phase === 'error' ? <p className="notice notice-bad">{state.message}</p> : null}
    </div>
  );
}

const BRANCH_NAMES = { expansion: 'query expansion', hyde: 'HyDE' } as const;

/** Whether the adaptive branches ran, and the confidence they were decided on. */
function AdaptiveFacts({ decision }: { decision: AdaptiveExpansionDecision }) {
  const names = (list: AdaptiveExpansionDecision['ran']) => list.map((b) => BRANCH_NAMES[b]).join(' and ');
  const measured =
    decision.confidence !== null && decision.threshold !== null
      ? `confidence ${decision.confidence.toFixed(2)} ${decision.confidence >= decision.threshold ? '≥' : '<'} ${decision.threshold.toFixed(2)}`
      : null;
  const sentence = decision.skipped.length
    ? `Adaptive: ${names(decision.skipped)} skipped — the original query's results looked sure enough (${measured}), so no model was called for ${decision.skipped.length === 1 ? 'it' : 'them'}.`
    : decision.policyVersion === null
      ? `Adaptive: ${names(decision.ran)} ran — no expansion policy is configured to decide.`
      : `Adaptive: ${names(decision.ran)} ran — the original query's results looked unsure (${measured}).`;
  return (
    <section
      aria-label="Adaptive expansion"
      className="adaptive-facts"
      data-skipped={decision.skipped.join(' ')}
    >
      <p className="field-hint">
        {sentence}
        {decision.policyVersion ? <span className="mono"> Policy {decision.policyVersion}.</span> : null}
      </p>
    </section>
  );
}

/** How an answer's passages were found: branches with ranks and scores, variants, HyDE, timings. */
/** Why an offline follow-up was searched alone or with the earlier question, in words. */
const FOLLOW_UP_REASONS: Record<FollowUpReason, string> = {
  'stands-alone': 'The follow-up names its own topic, so it was searched on its own.',
  'refers-back':
    'The follow-up points back ("it", "that") and was more answerable with the earlier question added, so that search leads; its own search (and one with words of the passages the earlier answer cited, if it cited any) fills the lower ranks.',
  'alone-leads':
    'The follow-up points back ("it", "that") but was as answerable on its own, so its own search leads; the search with the earlier question (and one with words of the passages the earlier answer cited, if it cited any) fills the lower ranks.',
  'no-salient-terms':
    'The follow-up has no word of its own to search for, so the earlier question was added.',
  'low-answerability':
    'The follow-up alone found nothing that answers it, so the earlier question was added.',
};

export function RetrievalPanel({ retrieval, messageId, citedChunkIds }: RetrievalPanelProps) {
  const timings = Object.entries(retrieval.timings);
  const longest = Math.max(1, ...timings.map(([, ms]) => ms));
  const variants = retrieval.expansions?.variants ?? [];
  const summary = [
    `${retrieval.passages.length} passage${retrieval.passages.length === 1 ? '' : 's'}`,
    variants.length ? `${variants.length} variant${variants.length === 1 ? '' : 's'}` : null,
    retrieval.hyde ? 'HyDE' : null,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <details className="retrieval-panel" open>
      <summary>
        Retrieval <span className="retrieval-summary">{summary}</span>
      </summary>

      {retrieval.warnings.length > 0 ? (
        <ul className="retrieval-warnings" aria-label="Retrieval warnings">
          {retrieval.warnings.map((warning, index) => (
            <li key={`${index}-${warning}`}>{warning}</li>
          ))}
        </ul>
      ) : null}

      {retrieval.belowThreshold ? (
        <p className="field-hint">Nothing cleared the similarity threshold, so no passage was used.</p>
      ) : null}

      {retrieval.answerability ? <AnswerabilityFacts verdict={retrieval.answerability} /> : null}

      {retrieval.adaptive ? <AdaptiveFacts decision={retrieval.adaptive} /> : null}

      {retrieval.passages.length > 0 ? (
        <section aria-label="Passages used">
          <h4>Passages</h4>
          <p className="field-hint score-explainer">
            Each branch ranks passages by its own score (BM25 or cosine similarity), and those scores
            can&apos;t be compared across branches. With all-MiniLM-L6-v2 the fused score is score fusion:
            each branch&apos;s scores are scaled to 0–1 between its lowest and highest, then added with the
            branch&apos;s weight. With other embedders it is reciprocal rank fusion: every branch that found a
            passage adds 1 ÷ (60 + its rank there). Either way passages ranked high by several branches come
            first. With reranking on, it is the reranker&apos;s score instead.
          </p>
          <ol className="retrieval-passages">
            {retrieval.passages.map((result, index) => (
              <li
                key={`${result.chunkId}-${index}`}
                className="retrieval-passage"
                data-chunk-id={result.chunkId}
              >
                <div className="retrieval-passage-head">
                  <span className="retrieval-rank">[{index + 1}]</span>
                  <span className="retrieval-title">
                    {result.title}
                    <HeadingTrail
                      title={result.title}
                      headingPath={result.headingPath}
                      className="retrieval-path"
                    />
                    {result.pages ? (
                      <span className="retrieval-path">, {formatPages(result.pages)}</span>
                    ) : null}
                  </span>
                  {citedChunkIds.has(result.chunkId) ? <span className="chip chip-accent">cited</span> : null}
                  <span className="retrieval-fused" data-fused-score={result.score}>
                    fused <span className="mono">{formatScore(result.score)}</span>
                  </span>
                </div>
                <ul className="branch-list" aria-label="Found by">
                  {result.provenance.map((item) => {
                    const branch = parseBranch(item.branch);
                    return (
                      <li
                        key={item.branch}
                        className="chip"
                        data-branch-kind={branch.kind}
                        data-branch={item.branch}
                      >
                        {branch.label}:{' '}
                        <span className="mono">
                          rank {item.rank} · score {formatScore(item.score)}
                        </span>
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {retrieval.expansions ? (
        <section aria-label="Query variants">
          <h4>
            Query variants <span className="muted">— {sourceLabel(retrieval.expansions.source)}</span>
          </h4>
          {variants.length ? (
            <ol className="variant-list">
              {variants.map((variant, index) => (
                <li key={`${index}-${variant}`}>{variant}</li>
              ))}
            </ol>
          ) : (
            <p className="field-hint">No variants were produced.</p>
          )}
        </section>
      ) : null}

      {retrieval.hyde ? (
        <section aria-label="HyDE passage">
          <h4>
            HyDE passage <span className="muted">— {sourceLabel(retrieval.hyde.source)}</span>
          </h4>
          <blockquote className="hyde-passage">{retrieval.hyde.passage}</blockquote>
        </section>
      ) : null}

      {timings.length > 0 ? (
        <section aria-label="Timings">
          <h4>Timings</h4>
          <dl className="timing-bars">
            {timings.map(([stage, ms]) => (
              <div key={stage}>
                <dt>{timingLabel(stage)}</dt>
                <dd>
                  <span
                    className="timing-bar"
                    style={{ inlineSize: `${Math.max(2, (ms / longest) * 100)}%` }}
                  />
                  <span className="mono">{Math.round(ms)} ms</span>
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      {messageId ? <StoredTrace messageId={messageId} /> : null}
    </details>
  );
}
