import { Client } from 'pg';

/** One statement on a server-level connection (CREATE / DROP DATABASE), then the connection is closed. */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
