import { ChunkEntity } from './entities/chunk.entity';
import { DocumentEntity } from './entities/document.entity';

/** The ingestion module's tables: documents and their chunks. */
export const INGESTION_ENTITIES = [DocumentEntity, ChunkEntity];
