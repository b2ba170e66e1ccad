import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Roles } from '../auth/principal';
import { MetricsService } from './metrics.service';

@ApiTags('ops')
@Roles('admin')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics (admin key: x-api-key, Bearer token or basic-auth password)',
    description:
      'HTTP durations by route and status, search and chat latency and errors, queue depth by state, job ' +
      'durations, finished jobs, ingested documents and chunks, process metrics.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format' })
  scrape(): Promise<string> {
    return this.metrics.text();
  }
}
