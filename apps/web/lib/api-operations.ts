/** The endpoints the web app calls, described once so errors can name what the person was doing. */
export interface ApiOperation {
  method: 'GET' | 'POST';
  path: string;
  /** Completes "couldn't …", e.g. "search your documents". */
  action: string;
  /** Names the feature in "… isn't available on this server yet". */
  feature: string;
  timeoutMs: number;
  /** Extra advice when the operation is slow. */
  slowHint?: string;
}

export const API_OPERATIONS = {
  health: {
    method: 'GET',
    path: '/health',
    action: 'check its status',
    feature: 'The status check',
    timeoutMs: 5_000,
  },
  search: {
    method: 'POST',
    path: '/rag/search',
    action: 'search your documents',
    feature: 'Search',
    timeoutMs: 60_000,
    slowHint: 'Turning off query expansion, HyDE and reranking makes a search faster.',
  },
} as const satisfies Record<string, ApiOperation>;

export type ApiOperationName = keyof typeof API_OPERATIONS;
