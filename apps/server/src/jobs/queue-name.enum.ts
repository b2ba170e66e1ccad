/** Every BullMQ queue the server uses. */
export enum QueueName {
  Ingestion = 'ingestion',
}
