'use client';

import type { BankEnhancementWarnings, Enhancement } from '@lumina/shared';
import { useApiClient } from '../../hooks/use-api-client';
import { useResource } from '../../hooks/use-resource';
import { enhancementWarningSentences } from '../../lib/ablation';
import './settings.css';

/**
 * Where the banks' latest ablations measured enhancements worse than off: read once for the drawer.
 * Nothing is shown when none did, or when they cannot be read (ablations are an admin's).
 */
export function useEnhancementWarnings(): BankEnhancementWarnings[] {
  const api = useApiClient();
  const warnings = useResource('enhancement-warnings', (signal) => api.listEnhancementWarnings({ signal }));
  return warnings.data ?? [];
}

/** Under an enhancement's field: each bank's latest ablation that measured it worse than off. */
export function EnhancementWarnings({
  id,
  enhancement,
  banks,
}: {
  id: string;
  enhancement: Enhancement;
  banks: readonly BankEnhancementWarnings[];
}) {
  const sentences = enhancementWarningSentences(banks, enhancement);
  if (sentences.length === 0) return null;
  return (
    <div id={id} className="field-note" role="note" data-testid={`${id}`}>
      <p>Measured worse than off in the latest ablation:</p>
      <ul>
        {sentences.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
    </div>
  );
}
