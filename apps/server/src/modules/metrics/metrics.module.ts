import { Module } from '@nestjs/common';
import { JobEventsModule } from '../../jobs/job-events.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { CollectionStatsRepository } from './repositories/collection-stats.repository';

/** GET /metrics (Prometheus). API process only. */
@Module({
  imports: [JobEventsModule],
  controllers: [MetricsController],
  providers: [MetricsService, CollectionStatsRepository],
})
export class MetricsModule {}
