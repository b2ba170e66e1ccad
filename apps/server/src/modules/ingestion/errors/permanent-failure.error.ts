/**
 * A job failure that retrying cannot fix (unreadable input, a mismatched configuration). The processor
 * turns it into BullMQ's UnrecoverableError, so the job fails at once instead of using its retries.
 * The message is shown to people: one plain sentence.
 */
export class PermanentFailureError extends Error {
  override readonly name: string = 'PermanentFailureError';
}
