import { SourceItemEntity } from './entities/source-item.entity';
import { SourceSyncRunEntity } from './entities/source-sync-run.entity';
import { SourceEntity } from './entities/source.entity';

/** The sources module's tables: sources, their items and their sync runs. */
export const SOURCE_ENTITIES = [SourceEntity, SourceItemEntity, SourceSyncRunEntity];
