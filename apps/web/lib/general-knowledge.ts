import type { LlmAvailability } from '../hooks/use-health';

/**
 * What a not-found answer offers: 'offer' the general-knowledge button (it can work), 'needs-llm'
 * the sentence that says what would make it available (no button), or 'unknown' (nothing yet).
 *
 * A live answer carries the server's own word (`generalKnowledgeAvailable`); an answer loaded from
 * history, or from a server that does not say, follows what GET /health reports about the LLM.
 */
export type GeneralKnowledgeOffer = 'offer' | 'needs-llm' | 'unknown';

export function generalKnowledgeOffer(
  serverSaid: boolean | null,
  llm: LlmAvailability,
): GeneralKnowledgeOffer {
  if (serverSaid !== null) return serverSaid ? 'offer' : 'needs-llm';
  if (llm === 'configured') return 'offer';
  if (llm === 'not-configured') return 'needs-llm';
  return 'unknown';
}
