'use client';

import type { SearchSettings } from '@lumina/shared';
import { useEffectiveSettings } from '../../store/settings.store';
import './settings.css';

/** One line naming the settings a request will carry: "BM25 · top 6 of 30 · expansion ×3 · HyDE". */
export function SettingsSummary() {
  return <span className="settings-summary">{settingsLine(useEffectiveSettings())}</span>;
}

/** "BM25 · top 6 of 30 · expansion ×3 · HyDE" for any resolved settings. */
export function settingsLine(settings: SearchSettings): string {
  const parts = [
    settings.ranker === 'bm25' ? 'BM25' : settings.ranker,
    `top ${settings.topK} of ${settings.candidateK}`,
    settings.enableQueryExpansion
      ? `${settings.enableQueryExpansion === 'adaptive' ? 'adaptive ' : ''}expansion ×${settings.expansionCount}`
      : null,
    settings.enableHyDE ? `${settings.enableHyDE === 'adaptive' ? 'adaptive ' : ''}HyDE` : null,
    settings.enableRerank ? 'rerank' : null,
    settings.minScore > 0 ? `threshold ${settings.minScore.toFixed(2)}` : null,
    settings.documentIds.length ? `${settings.documentIds.length} documents` : null,
  ].filter(Boolean);
  return parts.join(' · ');
}
