import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AdminMiddleware } from './admin.middleware';
import { ApiKeyService } from './api-key.service';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { Authenticator } from './authenticator';
import { ApiKeyRepository } from './repositories/api-key.repository';

/**
 * Who may do what: API keys with a role (admin, user), the global guard that authenticates every route
 * not marked @Public(), the admin middleware of the queue dashboard, and key management under /auth.
 * API process only (the workers serve no requests).
 */
@Global()
@Module({
  controllers: [AuthController],
  providers: [
    ApiKeyService,
    ApiKeyRepository,
    Authenticator,
    AdminMiddleware,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [ApiKeyService, Authenticator, AdminMiddleware],
})
export class AuthModule {}
