import { ChunkEntity } from '../modules/ingestion/entities/chunk.entity';
import { DocumentEntity } from '../modules/ingestion/entities/document.entity';

/** Every TypeORM entity, registered once for the API, the worker and the CLIs. */
export const ENTITIES = [DocumentEntity, ChunkEntity];
