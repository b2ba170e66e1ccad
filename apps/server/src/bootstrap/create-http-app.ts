import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from '../app.module';
import type { Env } from '../config/env.schema';
import type { DatabaseConnection } from '../database/database-connection';
import { assertSafeListenAddress } from '../modules/auth/local-mode';
import { RequestMetrics } from '../modules/metrics/request-metrics';
import { applyHttpSecurity } from '../modules/security/http-security';
import { withContractSchemas } from '../common/validation/zod-contract';
import { installHttpDrain } from './http-drain';

/** Build the HTTP application (not yet listening): used by main.ts and by the integration tests. */
export async function createHttpApp(env: Env, connection: DatabaseConnection): Promise<INestApplication> {
  assertSafeListenAddress(env);
  const app = await NestFactory.create(AppModule.forRoot(env, connection), {
    bufferLogs: true,
    // The body parsers are applyHttpSecurity's: size-limited, with JSON error answers.
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  // First: during a shutdown, new requests are answered 503 before anything else runs.
  installHttpDrain(app);
  // Every response's duration by route template and status, 401s and 404s included.
  app.use(app.get(RequestMetrics).middleware);
  applyHttpSecurity(app, {
    bodyLimit: env.REQUEST_BODY_LIMIT,
    crossSite: { localMode: !env.ADMIN_API_KEY, webOrigins: env.WEB_ORIGIN },
  });
  app.enableCors({ origin: env.WEB_ORIGIN });
  // No global validation pipe: every body and query is parsed by its contract schema (libs/shared)
  // where the controller declares it (@ValidBody, @ValidQuery).
  const document = withContractSchemas(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Lumina API')
        .setDescription('Retrieval-augmented chat over your documents, with citations to the exact passages.')
        .setVersion('0.1.0')
        .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'x-api-key')
        .addSecurityRequirements('x-api-key')
        .build(),
    ),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
  return app;
}
