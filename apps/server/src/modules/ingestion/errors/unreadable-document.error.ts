import { PermanentFailureError } from './permanent-failure.error';

/** The file cannot be turned into text (corrupt, truncated, not what its name says, or empty). */
export class UnreadableDocumentError extends PermanentFailureError {
  override readonly name = 'UnreadableDocumentError';
}
