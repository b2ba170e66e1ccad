/** A seed document to chunk, its content hash from its title ($1). */
export const INSERT_SEED_DOCUMENT_SQL = `INSERT INTO documents (title, content_hash, status) VALUES ($1, md5($1), 'chunking') RETURNING id`;
