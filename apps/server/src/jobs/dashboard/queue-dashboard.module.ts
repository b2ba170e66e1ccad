import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import type { BullBoardModuleOptions } from '@bull-board/nestjs';
import { Module } from '@nestjs/common';
import { QueueName } from '../queue-name.enum';
import { QueueDashboardMiddleware } from './queue-dashboard.middleware';

/** Where operators watch, retry and clean the queues: bull-board, behind an admin API key. */
export const QUEUE_DASHBOARD_ROUTE = '/admin/queues';

/** bull-board at /admin/queues over every queue of the QueueName enum. API process only. */
@Module({
  imports: [
    BullBoardModule.forRoot({
      route: QUEUE_DASHBOARD_ROUTE,
      // @bull-board/express ships its own copy of @bull-board/api (a patch version apart): same shape.
      adapter: ExpressAdapter as unknown as BullBoardModuleOptions['adapter'],
      // The admin check, then bounded waits on Redis for the dashboard's JSON API.
      middleware: QueueDashboardMiddleware,
      boardOptions: { uiConfig: { boardTitle: 'Lumina queues' } },
    }),
    BullBoardModule.forFeature(...Object.values(QueueName).map((name) => ({ name, adapter: BullMQAdapter }))),
  ],
})
export class QueueDashboardModule {}
