import { Injectable } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { assertJobHandlers } from './job-handlers';
import type { HandlerRegistration, JobHandlers } from './job-handlers';
import type { QueueName } from './queue-name.enum';

/**
 * Where each processor declares its handlers (from its constructor); at module init, before any worker
 * takes a job, they are checked against the job catalogue (assertJobHandlers).
 */
@Injectable()
export class JobHandlerRegistry implements OnModuleInit {
  private readonly registrations: HandlerRegistration[] = [];

  register<Q extends QueueName>(queue: Q, handlers: JobHandlers<Q>): void {
    this.registrations.push({ queue, names: Object.keys(handlers) });
  }

  onModuleInit(): void {
    assertJobHandlers(this.registrations);
  }
}
