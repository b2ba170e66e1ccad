import { Module } from '@nestjs/common';
import { EmbedderStateRepository } from '../ingestion/repositories/embedder-state.repository';
import { RerankerCoreModule } from '../reranker/reranker-core.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { DatabaseProbeRepository } from './repositories/database-probe.repository';

@Module({
  imports: [RerankerCoreModule],
  controllers: [HealthController],
  providers: [HealthService, DatabaseProbeRepository, EmbedderStateRepository],
  exports: [HealthService],
})
export class HealthModule {}
