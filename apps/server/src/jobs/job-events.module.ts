import { Module } from '@nestjs/common';
import { JobEventsService } from './job-events.service';

/** Job events from every process (through Redis), for live progress streams and metrics. API process only. */
@Module({ providers: [JobEventsService], exports: [JobEventsService] })
export class JobEventsModule {}
