import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { appSchema } from './app-data-source';
import { ConfigModule } from './config/config.module';
import type { Env } from './config/env.schema';
import type { DatabaseConnection } from './database/database-connection';
import { DatabaseModule } from './database/database.module';
import { QueueDashboardModule } from './jobs/dashboard/queue-dashboard.module';
import { JobsModule } from './jobs/jobs.module';
import { LoggingModule } from './logging/logging.module';
import { AuthModule } from './modules/auth/auth.module';
import { ChatModule } from './modules/chat/chat.module';
import { OpenAiModule } from './modules/openai/openai.module';
import { CollectionsModule } from './modules/collections/collections.module';
import { EvaluationWorkersModule } from './modules/evaluation/evaluation-workers.module';
import { EvaluationModule } from './modules/evaluation/evaluation.module';
import { FeedbackModule } from './modules/feedback/feedback.module';
import { HealthModule } from './modules/health/health.module';
import { IngestionWorkersModule } from './modules/ingestion/ingestion-workers.module';
import { IngestionModule } from './modules/ingestion/ingestion.module';
import { McpModule } from './modules/mcp/mcp.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { RequestMetricsModule } from './modules/metrics/request-metrics';
import { QuestionBankModule } from './modules/question-bank/question-bank.module';
import { RagModule } from './modules/rag/rag.module';
import { RerankerModule } from './modules/reranker/reranker.module';
import { SecurityModule } from './modules/security/security.module';
import { SourceWorkersModule } from './modules/sources/source-workers.module';
import { SourcesModule } from './modules/sources/sources.module';
import { ProvidersModule } from './providers/providers.module';

/** The modules every process needs: config, logs, database, queues. */
export function coreImports(
  env: Env,
  connection: DatabaseConnection,
): (DynamicModule | typeof ProvidersModule | typeof RequestMetricsModule)[] {
  return [
    ConfigModule.forRoot(env),
    LoggingModule.forRoot(env),
    DatabaseModule.forRoot(connection, env, appSchema(env)),
    JobsModule.forRoot(env),
    ProvidersModule,
    RequestMetricsModule,
  ];
}

/** The HTTP API (and, in the one-process mode, the workers too). */
@Module({})
export class AppModule {
  static forRoot(env: Env, connection: DatabaseConnection): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...coreImports(env, connection),
        AuthModule,
        SecurityModule,
        HealthModule,
        RagModule,
        ChatModule,
        FeedbackModule,
        OpenAiModule,
        QuestionBankModule,
        EvaluationModule,
        RerankerModule,
        ...(env.WORKERS_IN_PROCESS ? [EvaluationWorkersModule.forRoot(env)] : []),
        IngestionModule,
        CollectionsModule,
        SourcesModule,
        McpModule,
        MetricsModule,
        QueueDashboardModule,
        ...(env.WORKERS_IN_PROCESS ? [IngestionWorkersModule.forRoot(env)] : []),
        ...(env.WORKERS_IN_PROCESS ? [SourceWorkersModule.forRoot(env)] : []),
      ],
    };
  }
}
