import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { healthReportSchema, livenessReportSchema, readinessReportSchema } from '@lumina/shared';
import type { HealthReport, LivenessReport, ReadinessReport } from '@lumina/shared';
import type { Request, Response } from 'express';
import { Authenticator } from '../auth/authenticator';
import { Public } from '../auth/principal';
import { contractRef, ValidResponse } from '../../common/validation/zod-contract';
import { HealthService } from './health.service';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly authenticator: Authenticator,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers (no I/O; for restart probes)' })
  @ValidResponse(livenessReportSchema, 'LivenessReport', 'The process and its event loop answer')
  live(): LivenessReport {
    return this.health.live();
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database and Redis answer (for traffic and start-up order)' })
  @ValidResponse(readinessReportSchema, 'ReadinessReport', 'The database and Redis answer')
  @ApiServiceUnavailableResponse({
    description: 'The database or Redis does not answer',
    schema: { $ref: contractRef(readinessReportSchema, 'ReadinessReport') },
  })
  async ready(@Res({ passthrough: true }) response: Response): Promise<ReadinessReport> {
    const report = await this.health.ready();
    if (report.status !== 'ready') response.status(503);
    return report;
  }

  @Get()
  @ApiOperation({
    summary: 'Database and Redis status',
    description:
      'No key needed. Document counts by language and a fitted reranker’s name are shown to admin keys only.',
  })
  @ValidResponse(healthReportSchema, 'HealthReport', 'Everything answers')
  @ApiServiceUnavailableResponse({
    description: 'The database or Redis does not answer',
    schema: { $ref: contractRef(healthReportSchema, 'HealthReport') },
  })
  async check(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<HealthReport> {
    const verdict = await this.authenticator.resolve(request);
    const report = await this.health.check(verdict.ok && verdict.principal.role === 'admin');
    if (report.status !== 'ok') response.status(503);
    return report;
  }
}
