import type { Client, Connection, Submittable } from 'pg';

/** The CopyData/CopyDone senders pg's Connection has (its typings leave them out). */
interface CopyConnection extends Connection {
  sendCopyFromChunk(chunk: Uint8Array): void;
  endCopyFrom(): void;
}

/**
 * `COPY … FROM STDIN` for node-postgres without an extra package: a submittable query that answers the
 * server's CopyInResponse with the whole payload, then CopyDone. Resolves with the row count.
 */
export function copyFromStdin(client: Client, sql: string, data: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    const query: Submittable & Record<string, unknown> = {
      submit(connection: Connection) {
        connection.query(sql);
      },
      handleCopyInResponse(connection: CopyConnection) {
        const chunk = 1 << 20;
        for (let offset = 0; offset < data.length; offset += chunk) {
          connection.sendCopyFromChunk(data.subarray(offset, offset + chunk));
        }
        connection.endCopyFrom();
      },
      handleCommandComplete(message: { text: string }) {
        rows = Number(message.text.split(' ').pop());
      },
      // pg forgets the active query on an ErrorResponse: the ReadyForQuery after it never reaches us.
      handleError(failure: Error) {
        reject(failure);
      },
      handleReadyForQuery() {
        resolve(rows);
      },
      handleEmptyQuery() {},
      handleRowDescription() {},
      handleDataRow() {},
      handleCopyData() {},
      handlePortalSuspended() {},
    };
    void client.query(query);
  });
}
