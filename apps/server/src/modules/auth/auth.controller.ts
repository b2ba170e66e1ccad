import { Controller, Delete, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { createApiKeyRequestSchema, pageQuerySchema } from '@lumina/shared';
import type {
  ApiKeySummary,
  AuthIdentity,
  CreateApiKeyRequest,
  CreatedApiKey,
  Page,
  PageQuery,
} from '@lumina/shared';
import { ValidBody, ValidQuery } from '../../common/validation/zod-contract';
import { ApiKeyService } from './api-key.service';
import { CurrentPrincipal, Roles } from './principal';
import type { Principal } from './principal';

const uuid = new ParseUUIDPipe({ version: undefined, errorHttpStatusCode: 400 });

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get('me')
  @ApiOperation({ summary: 'Who the request is authenticated as, and the server’s mode (keys or local)' })
  @ApiOkResponse({ description: '{ id, name, role, mode }' })
  me(@CurrentPrincipal() principal: Principal): AuthIdentity {
    return { id: principal.keyId, name: principal.name, role: principal.role, mode: this.keys.mode };
  }

  @Post('keys')
  @Roles('admin')
  @ApiOperation({
    summary: 'Create an API key (admin)',
    description: 'The answer carries the key itself: the only time it is shown. Only its hash is stored.',
  })
  @ApiCreatedResponse({ description: '{ id, name, role, prefix, createdAt, key }' })
  @ApiForbiddenResponse({ description: 'Not an admin key' })
  create(
    @ValidBody(createApiKeyRequestSchema, 'CreateApiKeyRequest') body: CreateApiKeyRequest,
  ): Promise<CreatedApiKey> {
    return this.keys.create(body.name, body.role);
  }

  @Get('keys')
  @Roles('admin')
  @ApiOperation({ summary: 'API keys, newest first, without their secrets (admin; paginated)' })
  @ApiOkResponse({ description: '{ items, page, limit, total, totalPages }' })
  list(@ValidQuery(pageQuerySchema) query: PageQuery): Promise<Page<ApiKeySummary>> {
    return this.keys.list(query);
  }

  @Delete('keys/:id')
  @Roles('admin')
  @ApiOperation({ summary: 'Revoke an API key (admin); it is refused at once' })
  @ApiOkResponse({ description: 'The revoked key' })
  @ApiNotFoundResponse({ description: 'Unknown key' })
  @ApiConflictResponse({ description: 'The last active admin key, or the key of ADMIN_API_KEY' })
  revoke(@Param('id', uuid) id: string): Promise<ApiKeySummary> {
    return this.keys.revoke(id);
  }
}
