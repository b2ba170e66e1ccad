import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/principal';
import { HealthService } from './health.service';
import type { HealthReport } from './health.service';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOperation({ summary: 'Database and Redis status' })
  @ApiOkResponse({ description: 'Everything answers' })
  @ApiServiceUnavailableResponse({ description: 'The database or Redis does not answer' })
  async check(@Res({ passthrough: true }) response: Response): Promise<HealthReport> {
    const report = await this.health.check();
    if (report.status !== 'ok') response.status(503);
    return report;
  }
}
