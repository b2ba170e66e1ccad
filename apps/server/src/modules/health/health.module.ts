import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { DatabaseProbeRepository } from './repositories/database-probe.repository';

@Module({
  controllers: [HealthController],
  providers: [HealthService, DatabaseProbeRepository],
  exports: [HealthService],
})
export class HealthModule {}
