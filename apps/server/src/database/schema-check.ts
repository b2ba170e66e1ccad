import type { DataSource } from 'typeorm';

/** Refuse to start when the stored vectors' width is not the configured embedder's. */
export async function assertEmbeddingDimension(dataSource: DataSource, expected: number): Promise<void> {
  const rows: { dimension: number }[] = await dataSource.query(
    `SELECT atttypmod AS dimension FROM pg_attribute
     WHERE attrelid = 'chunks'::regclass AND attname = 'embedding' AND NOT attisdropped`,
  );
  const actual = rows[0]?.dimension;
  if (actual !== undefined && actual !== expected) {
    throw new Error(
      `The database stores ${actual}-dimensional chunk vectors but the configured embedder returns ${expected}. ` +
        'Point PGLITE_DATA_DIR/DATABASE_URL at a database made for this embedder, or re-create it.',
    );
  }
}
