/** Every BullMQ queue the server uses. */
export enum QueueName {
  Ingestion = 'ingestion',
  /** Question generation and question-bank evaluation runs. */
  Evaluation = 'evaluation',
  /** Syncs of sources (folders, Git repositories), one at a time per source. */
  Sources = 'sources',
}
