'use client';

import { GENERAL_KNOWLEDGE_NEEDS_LLM } from '@lumina/shared';
import { HeadingTrail } from '../ui/heading-trail';
import { useLlmAvailability } from '../../hooks/use-health';
import { generalKnowledgeOffer } from '../../lib/general-knowledge';
import type { AssistantTurn } from '../../store/chat.store';
import { usePreferences } from '../../store/preferences.store';
import { AnswerText } from './answer-text';
import { AnswerFeedback } from './answer-feedback';
import { RetrievalPanel } from './retrieval-panel';
import { useState } from 'react';
import { formatPages } from '../../lib/citations';
import { answerWithSources, formatDuration } from '../../lib/answer-copy';
import './chat.css';

export interface AssistantMessageProps {
  turn: AssistantTurn;
  /** The person can ask for a general-knowledge answer to this not-found turn. */
  canAnswerGenerally: boolean;
  /** A general-knowledge answer already follows this turn. */
  answeredGenerally: boolean;
  busy: boolean;
  onOpenCitation: (turn: AssistantTurn, marker: number, markerIndex: number) => void;
  onRetry: (turn: AssistantTurn) => void;
  onAnswerGenerally: (turn: AssistantTurn) => void;
  /** Present on the last answer when it can be asked again in its place. */
  onRegenerate?: () => void;
}

function statusLine(turn: AssistantTurn): string {
  switch (turn.phase) {
    case 'retrieving':
      return turn.kind === 'general' ? 'Answering from general knowledge…' : 'Searching your documents…';
    case 'streaming':
      return 'Writing the answer…';
    default:
      return '';
  }
}

export function AssistantMessage({
  turn,
  canAnswerGenerally,
  answeredGenerally,
  busy,
  onOpenCitation,
  onRetry,
  onAnswerGenerally,
  onRegenerate,
}: AssistantMessageProps) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const showTrace = usePreferences((state) => state.showRetrievalTrace);
  const llm = useLlmAvailability();
  const offer = generalKnowledgeOffer(turn.generalKnowledgeAvailable, llm.state);
  // A general-knowledge answer that failed because the server has no model can never succeed.
  const needsLlm = turn.kind === 'general' && turn.phase === 'error' && llm.state === 'not-configured';
  const general = turn.kind === 'general' || turn.source === 'general-knowledge';
  const streaming = turn.phase === 'retrieving' || turn.phase === 'streaming';
  const passages = turn.retrieval?.passages ?? [];
  const cited = new Set(turn.citations.map((citation) => citation.chunkId));
  const tokens = turn.usage ? turn.usage.promptTokens + turn.usage.completionTokens : 0;
  const citationsKnown = turn.phase === 'done' || turn.citations.length > 0 || turn.droppedMarkers.length > 0;
  const sources = turn.citations.filter(
    (citation, index, all) => all.findIndex((other) => other.marker === citation.marker) === index,
  );

  return (
    <li
      className="message message-assistant"
      data-phase={turn.phase}
      data-kind={turn.kind}
      data-not-found={turn.notFound ? 'true' : undefined}
      aria-busy={streaming}
      aria-label={general ? 'Answer from general knowledge' : 'Answer'}
    >
      <div className="message-head">
        <span className="message-author">Lumina</span>
        {general ? (
          <span className="label-general" role="note">
            General knowledge — not from your documents
          </span>
        ) : null}
        {turn.generator === 'extractive' ? (
          <span className="chip" title="No language model is configured: the answer quotes the passages.">
            Quoted from the passages (offline)
          </span>
        ) : null}
      </div>

      {streaming && !turn.text ? (
        <p className="message-status" aria-live="polite">
          {statusLine(turn)}
        </p>
      ) : null}

      {turn.text ? (
        <AnswerText
          text={turn.text}
          citations={turn.citations}
          passages={passages}
          dropped={turn.droppedMarkers}
          citationsKnown={citationsKnown}
          streaming={streaming}
          onOpenCitation={(marker, index) => onOpenCitation(turn, marker, index)}
        />
      ) : null}

      {turn.phase === 'error' && needsLlm ? (
        <div className="message-error" role="alert">
          <p>{turn.error}</p>
          <p className="field-hint general-needs-llm">{GENERAL_KNOWLEDGE_NEEDS_LLM}</p>
        </div>
      ) : null}

      {turn.phase === 'error' && !needsLlm ? (
        <div className="message-error" role="alert">
          <p>{turn.error}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => onRetry(turn)}
            disabled={busy}
          >
            Retry
          </button>
        </div>
      ) : null}

      {turn.phase === 'stopped' ? (
        <div className="message-stopped">
          <p>Stopped before the answer finished.</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => onRetry(turn)}
            disabled={busy}
          >
            Ask again
          </button>
        </div>
      ) : null}

      {turn.notFound && turn.phase === 'done' && !general ? (
        <div className="not-found-offer" data-offer={offer}>
          {answeredGenerally || offer === 'unknown' ? null : offer === 'needs-llm' ? (
            <p className="field-hint general-needs-llm">{GENERAL_KNOWLEDGE_NEEDS_LLM}</p>
          ) : (
            <>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => onAnswerGenerally(turn)}
                disabled={busy || !canAnswerGenerally}
              >
                Answer from general knowledge
              </button>
              <p className="field-hint">
                {canAnswerGenerally
                  ? "The answer will not come from your documents and won't cite any."
                  : "This answer can't be followed up: the server didn't say which message it was."}
              </p>
            </>
          )}
        </div>
      ) : null}

      {general && turn.phase === 'done' ? (
        <p className="field-hint">
          This answer comes from the language model&apos;s general knowledge. It has no sources.
        </p>
      ) : null}

      {sources.length > 0 && !general ? (
        <div className="sources">
          <h3 className="sources-title">Sources</h3>
          <ol className="source-list">
            {sources.map((citation) => (
              <li key={citation.marker}>
                <button
                  type="button"
                  className="source-link"
                  aria-haspopup="dialog"
                  onClick={() => onOpenCitation(turn, citation.marker, -1)}
                >
                  <span className="source-marker">{citation.marker}</span>
                  <span>
                    {citation.title}
                    <HeadingTrail
                      title={citation.title}
                      headingPath={citation.headingPath}
                      className="muted"
                    />
                    {citation.pages ? (
                      <span className="source-pages muted">, {formatPages(citation.pages)}</span>
                    ) : null}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </div>
      ) : null}

      {showTrace && turn.retrieval ? (
        <RetrievalPanel retrieval={turn.retrieval} messageId={turn.messageId} citedChunkIds={cited} />
      ) : null}

      {/* Always there (empty while the answer streams), so the buttons appearing shift no layout. */}
      <div className="message-actions message-actions-answer">
        {turn.phase === 'done' && turn.text ? (
          <>
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={() => {
                const text = answerWithSources(turn.text, general ? [] : sources);
                navigator.clipboard.writeText(text).then(
                  () => setCopied('copied'),
                  () => setCopied('failed'),
                );
              }}
            >
              {copied === 'copied' ? 'Copied' : 'Copy'}
            </button>
            {onRegenerate ? (
              <button
                type="button"
                className="button button-ghost button-small"
                onClick={onRegenerate}
                disabled={busy}
              >
                Regenerate
              </button>
            ) : null}
            {copied === 'failed' ? (
              <span className="field-hint" role="alert">
                The browser did not allow copying.
              </span>
            ) : null}
          </>
        ) : null}
      </div>

      {turn.phase === 'done' && turn.text && turn.messageId ? (
        <AnswerFeedback turn={turn} messageId={turn.messageId} />
      ) : null}

      {turn.phase === 'done' && turn.timings ? (
        <p className="message-meta">
          {formatDuration(turn.timings.total)}
          {tokens ? ` · ${tokens} tokens` : null}
        </p>
      ) : null}
    </li>
  );
}
