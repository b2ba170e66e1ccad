'use client';

import { SETTINGS_LIMITS } from '@lumina/shared';
import { useCollections } from '../../hooks/use-collections';
import { useLlmAvailability } from '../../hooks/use-health';
import { searchedSentence } from '../../lib/collections';
import { useCollectionsStore } from '../../store/collections.store';
import { usePreferences } from '../../store/preferences.store';
import { useEffectiveSettings, useSettingsStore } from '../../store/settings.store';
import { EnhancementField } from './enhancement-field';
import { EnhancementWarnings, useEnhancementWarnings } from './enhancement-warnings';
import { NumberField } from './number-field';
import { RankerField } from './ranker-field';
import { ServingModels } from './serving-models';
import { ThresholdField } from './threshold-field';
import { ToggleField } from './toggle-field';
import './settings.css';

/** Every retrieval setting. Changes apply at once; only the differences from the defaults are kept. */
export function SettingsForm() {
  const settings = useEffectiveSettings();
  const overrides = useSettingsStore((state) => state.overrides);
  const updateSettings = useSettingsStore((state) => state.updateSettings);
  const resetSettings = useSettingsStore((state) => state.resetSettings);
  const changed = Object.keys(overrides).length;
  const scope = settings.documentIds.length;
  const llm = useLlmAvailability();
  const measuredWorse = useEnhancementWarnings();
  const showTrace = usePreferences((state) => state.showRetrievalTrace);
  const setPreference = usePreferences((state) => state.setPreference);
  const resetPreferences = usePreferences((state) => state.resetPreferences);
  const collections = useCollections();
  const searchedCollections = useCollectionsStore((state) => state.selected);
  const offline = (fallback: string) =>
    llm.state === 'configured'
      ? null
      : llm.state === 'not-configured'
        ? `No language model is configured on the server${llm.reported ? '' : ' (as its answers show)'}: ${fallback}`
        : `Needs a language model; the server doesn't say whether it has one. Without one, ${fallback}`;

  // Expansion and HyDE may be written by the server's local model even with no chat model configured.
  const searchNote = (fallback: string) => {
    if (llm.search?.source === 'local') {
      return `Written by the server's small local model (${llm.local?.model ?? llm.search.model ?? 'local'}); answers still quote the passages.`;
    }
    const missing =
      llm.local?.state === 'missing'
        ? ` The local model is asked for but missing: ${llm.local.reason ?? ''}`
        : '';
    const note = offline(fallback);
    return note && missing ? `${note}${missing}` : note;
  };

  return (
    <form className="settings-form" onSubmit={(event) => event.preventDefault()}>
      <section className="settings-group" aria-labelledby="settings-query">
        <h3 id="settings-query">Query</h3>
        <EnhancementField
          id="setting-query-expansion"
          label="Query expansion"
          hint="Rewrites your question into variants and searches with each of them."
          note={searchNote(
            'variants come from offline pseudo-relevance feedback (terms of the top keyword matches).',
          )}
          value={settings.enableQueryExpansion}
          onChange={(enableQueryExpansion) => updateSettings({ enableQueryExpansion })}
        />
        <EnhancementWarnings id="warning-query-expansion" enhancement="expansion" banks={measuredWorse} />
        <NumberField
          id="setting-expansion-count"
          label="Expansion count"
          hint={
            settings.enableQueryExpansion
              ? 'How many variants query expansion writes.'
              : 'Used when query expansion is on.'
          }
          value={settings.expansionCount}
          min={SETTINGS_LIMITS.expansionCount.min}
          max={SETTINGS_LIMITS.expansionCount.max}
          disabled={!settings.enableQueryExpansion}
          onChange={(expansionCount) => updateSettings({ expansionCount })}
        />
        <EnhancementField
          id="setting-hyde"
          label="HyDE"
          hint="Drafts a hypothetical answer passage and searches with it too."
          note={searchNote('the top passages of the original query stand in for the drafted passage.')}
          value={settings.enableHyDE}
          onChange={(enableHyDE) => updateSettings({ enableHyDE })}
        />
        <EnhancementWarnings id="warning-hyde" enhancement="hyde" banks={measuredWorse} />
      </section>

      <section className="settings-group" aria-labelledby="settings-ranking">
        <h3 id="settings-ranking">Ranking</h3>
        <RankerField value={settings.ranker} onChange={(ranker) => updateSettings({ ranker })} />
        <ToggleField
          id="setting-rerank"
          label="Rerank"
          hint="Re-scores the candidate pool with a reranking model before keeping the best passages."
          note={offline(
            'there is no reranker unless one is configured separately, and the fused ranking is kept.',
          )}
          checked={settings.enableRerank}
          onChange={(enableRerank) => updateSettings({ enableRerank })}
        />
        <EnhancementWarnings id="warning-rerank" enhancement="rerank" banks={measuredWorse} />
      </section>

      <section className="settings-group" aria-labelledby="settings-results">
        <h3 id="settings-results">Results</h3>
        <NumberField
          id="setting-top-k"
          label="Passages returned (top K)"
          hint="How many passages come back."
          value={settings.topK}
          min={SETTINGS_LIMITS.topK.min}
          max={SETTINGS_LIMITS.topK.max}
          onChange={(topK) => updateSettings({ topK })}
        />
        <NumberField
          id="setting-candidate-k"
          label="Candidate pool"
          hint="Passages each search branch keeps before fusion and reranking."
          value={settings.candidateK}
          min={SETTINGS_LIMITS.candidateK.min}
          max={SETTINGS_LIMITS.candidateK.max}
          onChange={(candidateK) => updateSettings({ candidateK })}
        />
        <ThresholdField
          id="setting-min-score"
          label="Similarity threshold"
          hint="Passages scoring below this are dropped; 0 keeps everything."
          value={settings.minScore}
          min={SETTINGS_LIMITS.minScore.min}
          max={SETTINGS_LIMITS.minScore.max}
          onChange={(minScore) => updateSettings({ minScore })}
        />
        <p className="field-hint">
          {scope === 0
            ? 'Searching all documents.'
            : `Searching ${scope} selected document${scope === 1 ? '' : 's'}.`}
        </p>
        {collections.missing ? null : (
          <p className="field-hint" data-testid="searched-collections">
            {searchedSentence(searchedCollections, collections.collections)} Pick them with the collections
            button above the chat.
          </p>
        )}
      </section>

      <section className="settings-group" aria-labelledby="settings-models">
        <h3 id="settings-models">Models</h3>
        <ServingModels />
      </section>

      <section className="settings-group" aria-labelledby="settings-display">
        <h3 id="settings-display">Display</h3>
        <ToggleField
          id="setting-show-trace"
          label="Show retrieval trace"
          hint="Under each answer: the passages used, which branch found each (with ranks and scores), the variants, the HyDE passage and the time of each stage."
          checked={showTrace}
          onChange={(value) => setPreference('showRetrievalTrace', value)}
        />
      </section>

      <div className="settings-footer">
        <p className="field-hint" aria-live="polite">
          {changed === 0
            ? 'All settings are at their defaults.'
            : `${changed} setting${changed === 1 ? ' differs' : 's differ'} from the defaults.`}
        </p>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            resetSettings();
            resetPreferences();
          }}
        >
          Reset to defaults
        </button>
      </div>
    </form>
  );
}
