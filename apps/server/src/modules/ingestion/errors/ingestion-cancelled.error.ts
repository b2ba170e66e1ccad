/** The document was deleted (or cancelled) while its job ran: the job stops and leaves nothing behind. */
export class IngestionCancelledError extends Error {
  override readonly name = 'IngestionCancelledError';

  constructor(readonly documentId: string) {
    super(`document ${documentId} was deleted while it was being ingested`);
  }
}
