import { Controller, Delete, Get, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  apiKeySummarySchema,
  authIdentitySchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  keyGrantsRequestSchema,
  pageOf,
  pageQuerySchema,
} from '@lumina/shared';
import type {
  ApiKeySummary,
  AuthIdentity,
  CreateApiKeyRequest,
  CreatedApiKey,
  KeyGrantsRequest,
  Page,
  PageQuery,
} from '@lumina/shared';
import { contractRef, ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
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
  @ValidResponse(authIdentitySchema, 'AuthIdentity')
  me(@CurrentPrincipal() principal: Principal): AuthIdentity {
    return {
      id: principal.keyId,
      name: principal.name,
      role: principal.role,
      grants: [...principal.grants],
      mode: this.keys.mode,
    };
  }

  @Post('keys')
  @Roles('admin')
  @ApiOperation({
    summary: 'Create an API key (admin)',
    description: 'The answer carries the key itself: the only time it is shown. Only its hash is stored.',
  })
  @ApiCreatedResponse({ schema: { $ref: contractRef(createdApiKeySchema, 'CreatedApiKey') } })
  @ApiForbiddenResponse({ description: 'Not an admin key' })
  create(
    @ValidBody(createApiKeyRequestSchema, 'CreateApiKeyRequest') body: CreateApiKeyRequest,
  ): Promise<CreatedApiKey> {
    return this.keys.create(body.name, body.role, body.grants ?? []);
  }

  @Put('keys/:id/grants')
  @Roles('admin')
  @ApiOperation({
    summary: "Replace a user key's collection grants (admin)",
    description: 'read: search, chat and read documents; write: also upload, move and delete documents.',
  })
  @ValidResponse(apiKeySummarySchema, 'ApiKeySummary', 'The key with its new grants')
  @ApiNotFoundResponse({ description: 'Unknown key or collection' })
  @ApiConflictResponse({ description: 'An admin key (it reaches every collection) or a revoked key' })
  setGrants(
    @Param('id', uuid) id: string,
    @ValidBody(keyGrantsRequestSchema, 'KeyGrantsRequest') body: KeyGrantsRequest,
  ): Promise<ApiKeySummary> {
    return this.keys.setGrants(id, body.grants);
  }

  @Get('keys')
  @Roles('admin')
  @ApiOperation({ summary: 'API keys, newest first, without their secrets (admin; paginated)' })
  @ValidResponse(pageOf(apiKeySummarySchema), 'ApiKeyPage')
  list(@ValidQuery(pageQuerySchema) query: PageQuery): Promise<Page<ApiKeySummary>> {
    return this.keys.list(query);
  }

  @Delete('keys/:id')
  @Roles('admin')
  @ApiOperation({ summary: 'Revoke an API key (admin); it is refused at once' })
  @ValidResponse(apiKeySummarySchema, 'ApiKeySummary', 'The revoked key')
  @ApiNotFoundResponse({ description: 'Unknown key' })
  @ApiConflictResponse({ description: 'The last active admin key, or the key of ADMIN_API_KEY' })
  revoke(@Param('id', uuid) id: string): Promise<ApiKeySummary> {
    return this.keys.revoke(id);
  }
}
