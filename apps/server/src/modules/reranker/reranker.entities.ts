import { RerankerModelEntity } from './entities/reranker-model.entity';

/** The reranker module's entities, for the data source's registry (src/entities.ts). */
export const RERANKER_ENTITIES = [RerankerModelEntity];
