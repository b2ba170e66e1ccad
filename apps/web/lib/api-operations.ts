/**
 * Every endpoint the web app calls, described once: the client builds its URLs from these, errors
 * name what the person was doing, and a unit test checks each path and method against the committed
 * snapshot of the server's OpenAPI document (openapi/lumina-api.json).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiOperation {
  method: HttpMethod;
  /** Path template; `:name` parts are filled from the call's params. */
  path: string;
  /** Completes "couldn't …", e.g. "search your documents". */
  action: string;
  /** Names the feature in "… isn't available on this server yet". */
  feature: string;
  /** For streams: until the response headers arrive. */
  timeoutMs: number;
  /** Extra advice when the operation is slow. */
  slowHint?: string;
  /** What to check after a 400 without details. */
  invalidHint?: string;
  /** Opens the sentence for a 400/422 with details, instead of "The server didn't accept the request". */
  invalidPrefix?: string;
}

const SEARCH_SLOW = 'Turning off query expansion, HyDE and reranking makes a search faster.';
const SETTINGS_HINT = 'Check the retrieval settings and try again.';
const FORM_HINT = 'Check the form and try again.';

export const API_OPERATIONS = {
  health: {
    method: 'GET',
    path: '/health',
    action: 'check its status',
    feature: 'The status check',
    timeoutMs: 5_000,
  },
  me: {
    method: 'GET',
    path: '/auth/me',
    action: 'check the API key',
    feature: 'Signing in with an API key',
    timeoutMs: 10_000,
  },

  // API keys (admin)
  listKeys: {
    method: 'GET',
    path: '/auth/keys',
    action: 'list the API keys',
    feature: 'Managing API keys',
    timeoutMs: 15_000,
  },
  createKey: {
    method: 'POST',
    path: '/auth/keys',
    action: 'create the API key',
    feature: 'Managing API keys',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  revokeKey: {
    method: 'DELETE',
    path: '/auth/keys/:id',
    action: 'revoke the API key',
    feature: 'Managing API keys',
    timeoutMs: 15_000,
  },
  setKeyGrants: {
    method: 'PUT',
    path: '/auth/keys/:id/grants',
    action: "save the key's collections",
    feature: 'Collection access for API keys',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },

  search: {
    method: 'POST',
    path: '/rag/search',
    action: 'search your documents',
    feature: 'Search',
    timeoutMs: 60_000,
    slowHint: SEARCH_SLOW,
    invalidHint: SETTINGS_HINT,
  },

  // chat
  chat: {
    method: 'POST',
    path: '/chat',
    action: 'answer your question',
    feature: 'Chat',
    timeoutMs: 60_000,
    slowHint: SEARCH_SLOW,
    invalidHint: SETTINGS_HINT,
  },
  chatGeneral: {
    method: 'POST',
    path: '/chat/general',
    action: 'answer from general knowledge',
    feature: 'Answering from general knowledge',
    timeoutMs: 60_000,
  },
  listConversations: {
    method: 'GET',
    path: '/conversations',
    action: 'list your conversations',
    feature: 'The conversation history',
    timeoutMs: 15_000,
  },
  getConversation: {
    method: 'GET',
    path: '/conversations/:id',
    action: 'open the conversation',
    feature: 'The conversation history',
    timeoutMs: 15_000,
  },
  renameConversation: {
    method: 'PATCH',
    path: '/conversations/:id',
    action: 'rename the conversation',
    feature: 'Renaming conversations',
    timeoutMs: 15_000,
    invalidHint: 'Check the new name and try again.',
  },
  deleteConversation: {
    method: 'DELETE',
    path: '/conversations/:id',
    action: 'delete the conversation',
    feature: 'Deleting conversations',
    timeoutMs: 15_000,
  },
  exportConversation: {
    method: 'GET',
    path: '/conversations/:id/export',
    action: 'export the conversation',
    feature: 'Exporting conversations',
    timeoutMs: 15_000,
  },
  getTrace: {
    method: 'GET',
    path: '/messages/:id/trace',
    action: 'load the retrieval trace',
    feature: 'The retrieval trace',
    timeoutMs: 15_000,
  },

  // feedback
  rateAnswer: {
    method: 'POST',
    path: '/messages/:id/feedback',
    action: 'save your rating',
    feature: 'Rating answers',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  withdrawRating: {
    method: 'DELETE',
    path: '/messages/:id/feedback',
    action: 'withdraw your rating',
    feature: 'Rating answers',
    timeoutMs: 15_000,
  },
  listFeedback: {
    method: 'GET',
    path: '/feedback',
    action: 'list the feedback',
    feature: 'The feedback review queue',
    timeoutMs: 15_000,
    invalidHint: 'Check the filters and try again.',
  },
  feedbackDaily: {
    method: 'GET',
    path: '/feedback/daily',
    action: "load each day's answers and ratings",
    feature: 'The feedback chart',
    timeoutMs: 15_000,
  },
  feedbackToBank: {
    method: 'POST',
    path: '/feedback/to-bank',
    action: 'add the feedback to the question bank',
    feature: 'Question bank items from feedback',
    timeoutMs: 30_000,
    invalidHint: FORM_HINT,
  },
  markFeedbackReviewed: {
    method: 'POST',
    path: '/feedback/:id/review',
    action: 'mark the feedback reviewed',
    feature: 'The feedback review queue',
    timeoutMs: 15_000,
  },

  // sources (admin)
  listSources: {
    method: 'GET',
    path: '/sources',
    action: 'list the sources',
    feature: 'Sources kept in sync',
    timeoutMs: 15_000,
  },
  createSource: {
    method: 'POST',
    path: '/sources',
    action: 'create the source',
    feature: 'Sources kept in sync',
    timeoutMs: 30_000,
    invalidHint: FORM_HINT,
  },
  updateSource: {
    method: 'PATCH',
    path: '/sources/:id',
    action: 'save the source',
    feature: 'Sources kept in sync',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  deleteSource: {
    method: 'DELETE',
    path: '/sources/:id',
    action: 'delete the source',
    feature: 'Sources kept in sync',
    timeoutMs: 60_000,
  },
  syncSource: {
    method: 'POST',
    path: '/sources/:id/sync',
    action: 'start the sync',
    feature: 'Sources kept in sync',
    timeoutMs: 15_000,
  },
  listSourceRuns: {
    method: 'GET',
    path: '/sources/:id/runs',
    action: "load the source's sync reports",
    feature: 'Sources kept in sync',
    timeoutMs: 15_000,
  },

  // documents
  listDocuments: {
    method: 'GET',
    path: '/documents',
    action: 'list your documents',
    feature: 'The document list',
    timeoutMs: 15_000,
  },
  getDocument: {
    method: 'GET',
    path: '/documents/:id',
    action: 'open the document',
    feature: 'Documents',
    timeoutMs: 15_000,
  },
  listChunks: {
    method: 'GET',
    path: '/documents/:id/chunks',
    action: "list the document's passages",
    feature: 'Document passages',
    timeoutMs: 15_000,
  },
  uploadDocuments: {
    method: 'POST',
    path: '/documents',
    action: 'accept the upload',
    feature: 'Uploading documents',
    timeoutMs: 300_000,
    invalidHint: 'Check the files and try again.',
    invalidPrefix: "The server couldn't use this file",
  },
  createTextDocument: {
    method: 'POST',
    path: '/documents/text',
    action: 'add the text',
    feature: 'Adding text documents',
    timeoutMs: 60_000,
    invalidHint: FORM_HINT,
  },
  deleteDocument: {
    method: 'DELETE',
    path: '/documents/:id',
    action: 'delete the document',
    feature: 'Deleting documents',
    timeoutMs: 30_000,
  },
  documentEvents: {
    method: 'GET',
    path: '/documents/:id/events',
    action: "follow the document's progress",
    feature: 'Live ingestion progress',
    timeoutMs: 15_000,
  },
  moveDocument: {
    method: 'POST',
    path: '/documents/:id/move',
    action: 'move the document',
    feature: 'Moving documents between collections',
    timeoutMs: 30_000,
  },

  // collections
  listCollections: {
    method: 'GET',
    path: '/collections',
    action: 'list the collections',
    feature: 'Collections',
    timeoutMs: 15_000,
  },
  createCollection: {
    method: 'POST',
    path: '/collections',
    action: 'create the collection',
    feature: 'Collections',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  getCollection: {
    method: 'GET',
    path: '/collections/:id',
    action: 'open the collection',
    feature: 'Collections',
    timeoutMs: 15_000,
  },
  updateCollection: {
    method: 'PATCH',
    path: '/collections/:id',
    action: 'save the collection',
    feature: 'Collections',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  deleteCollection: {
    method: 'DELETE',
    path: '/collections/:id',
    action: 'delete the collection',
    feature: 'Deleting collections',
    timeoutMs: 30_000,
  },

  // question banks and templates
  listQuestionBanks: {
    method: 'GET',
    path: '/question-banks',
    action: 'list the question banks',
    feature: 'Question banks',
    timeoutMs: 15_000,
  },
  createQuestionBank: {
    method: 'POST',
    path: '/question-banks',
    action: 'create the question bank',
    feature: 'Question banks',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  getQuestionBank: {
    method: 'GET',
    path: '/question-banks/:id',
    action: 'open the question bank',
    feature: 'Question banks',
    timeoutMs: 15_000,
  },
  updateQuestionBank: {
    method: 'PATCH',
    path: '/question-banks/:id',
    action: 'save the question bank',
    feature: 'Question banks',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  deleteQuestionBank: {
    method: 'DELETE',
    path: '/question-banks/:id',
    action: 'delete the question bank',
    feature: 'Question banks',
    timeoutMs: 15_000,
  },
  listQuestionBankItems: {
    method: 'GET',
    path: '/question-banks/:id/items',
    action: "list the bank's questions",
    feature: 'Question bank items',
    timeoutMs: 15_000,
  },
  createQuestionBankItems: {
    method: 'POST',
    path: '/question-banks/:id/items',
    action: 'add the question',
    feature: 'Question bank items',
    timeoutMs: 30_000,
    invalidHint: FORM_HINT,
  },
  updateQuestionBankItem: {
    method: 'PATCH',
    path: '/question-banks/:id/items/:itemId',
    action: 'save the question',
    feature: 'Question bank items',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  deleteQuestionBankItem: {
    method: 'DELETE',
    path: '/question-banks/:id/items/:itemId',
    action: 'delete the question',
    feature: 'Question bank items',
    timeoutMs: 15_000,
  },
  importQuestionBankItems: {
    method: 'POST',
    path: '/question-banks/:id/import',
    action: 'import the questions',
    feature: 'Importing questions',
    timeoutMs: 120_000,
    invalidHint: 'Check the file and its format and try again.',
  },
  exportQuestionBankItems: {
    method: 'GET',
    path: '/question-banks/:id/export',
    action: 'export the questions',
    feature: 'Exporting questions',
    timeoutMs: 60_000,
  },
  generateQuestionBankItems: {
    method: 'POST',
    path: '/question-banks/:id/generate',
    action: 'start generating questions',
    feature: 'Generating questions',
    timeoutMs: 30_000,
    invalidHint: FORM_HINT,
  },
  getGenerationJob: {
    method: 'GET',
    path: '/question-banks/:id/generate/:jobId',
    action: 'check the generation',
    feature: 'Following question generation',
    timeoutMs: 15_000,
  },
  evaluateQuestionBank: {
    method: 'POST',
    path: '/question-banks/:id/evaluate',
    action: 'start the evaluation',
    feature: 'Evaluating question banks',
    timeoutMs: 30_000,
    invalidHint: SETTINGS_HINT,
  },
  listQuestionTemplates: {
    method: 'GET',
    path: '/question-templates',
    action: 'list the question templates',
    feature: 'Question templates',
    timeoutMs: 15_000,
  },
  createQuestionTemplate: {
    method: 'POST',
    path: '/question-templates',
    action: 'create the template',
    feature: 'Question templates',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  updateQuestionTemplate: {
    method: 'PATCH',
    path: '/question-templates/:id',
    action: 'save the template',
    feature: 'Editing question templates',
    timeoutMs: 15_000,
    invalidHint: FORM_HINT,
  },
  deleteQuestionTemplate: {
    method: 'DELETE',
    path: '/question-templates/:id',
    action: 'delete the template',
    feature: 'Deleting question templates',
    timeoutMs: 15_000,
  },

  // evaluation runs
  listEvalRuns: {
    method: 'GET',
    path: '/eval-runs',
    action: 'list the evaluation runs',
    feature: 'Evaluation runs',
    timeoutMs: 15_000,
  },
  getEvalRun: {
    method: 'GET',
    path: '/eval-runs/:id',
    action: 'open the evaluation run',
    feature: 'Evaluation runs',
    timeoutMs: 15_000,
  },
  compareEvalRuns: {
    method: 'GET',
    path: '/eval-runs/compare',
    action: 'compare the two runs',
    feature: 'Comparing evaluation runs',
    timeoutMs: 30_000,
  },

  // ablations
  startAblation: {
    method: 'POST',
    path: '/question-banks/:id/ablation',
    action: 'start the ablation',
    feature: 'Ablations',
    timeoutMs: 30_000,
    invalidHint: SETTINGS_HINT,
  },
  listBankAblations: {
    method: 'GET',
    path: '/question-banks/:id/ablations',
    action: "list the bank's ablations",
    feature: 'Ablations',
    timeoutMs: 15_000,
  },
  getAblation: {
    method: 'GET',
    path: '/ablations/:id',
    action: 'open the ablation',
    feature: 'Ablations',
    timeoutMs: 15_000,
  },
  listEnhancementWarnings: {
    method: 'GET',
    path: '/enhancement-warnings',
    action: 'read what the latest ablations measured of the enhancements',
    feature: 'Ablations',
    timeoutMs: 15_000,
  },
  // learned rerankers (admin)
  fitReranker: {
    method: 'POST',
    path: '/question-banks/:id/rerankers',
    action: 'start fitting a reranker on the bank',
    feature: 'Learned rerankers',
    timeoutMs: 30_000,
    invalidPrefix: "The reranker can't be fitted",
  },
  listRerankers: {
    method: 'GET',
    path: '/rerankers',
    action: 'list the fitted rerankers',
    feature: 'Learned rerankers',
    timeoutMs: 15_000,
  },
  getActiveReranker: {
    method: 'GET',
    path: '/rerankers/active',
    action: 'say which reranker is in use',
    feature: 'Learned rerankers',
    timeoutMs: 15_000,
  },
  getReranker: {
    method: 'GET',
    path: '/rerankers/:id',
    action: 'open the fitted reranker',
    feature: 'Learned rerankers',
    timeoutMs: 15_000,
  },
  getRerankerModel: {
    method: 'GET',
    path: '/rerankers/:id/model',
    action: 'download the fitted model',
    feature: 'Downloading fitted rerankers',
    timeoutMs: 30_000,
  },
  activateReranker: {
    method: 'POST',
    path: '/rerankers/:id/activate',
    action: 'switch the reranker on',
    feature: 'Learned rerankers',
    timeoutMs: 15_000,
  },
  deactivateReranker: {
    method: 'POST',
    path: '/rerankers/:id/deactivate',
    action: 'switch the reranker off',
    feature: 'Learned rerankers',
    timeoutMs: 15_000,
  },
  deleteReranker: {
    method: 'DELETE',
    path: '/rerankers/:id',
    action: 'delete the reranker',
    feature: 'Learned rerankers',
    timeoutMs: 15_000,
  },
} as const satisfies Record<string, ApiOperation>;

export type ApiOperationName = keyof typeof API_OPERATIONS;

/** Fills `:name` parts of a path template; values are URL-encoded. */
export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '')
      throw new Error(`Missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
}

/** `?a=1&b=x` from the defined values, in the given order ('' when none). */
export function buildQuery(query: Record<string, string | number | boolean | undefined | null> = {}): string {
  const parts = Object.entries(query)
    .filter(
      (entry): entry is [string, string | number | boolean] =>
        entry[1] !== undefined && entry[1] !== null && entry[1] !== '',
    )
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
