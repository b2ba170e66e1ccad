import { ApiProperty } from '@nestjs/swagger';
import type { ApiKeyRole, CreateApiKeyRequest } from '@lumina/shared';
import { IsIn, IsString, Matches, MaxLength } from 'class-validator';

export const API_KEY_ROLES: readonly ApiKeyRole[] = ['admin', 'user'];
export const MAX_KEY_NAME_CHARS = 100;

export class CreateApiKeyDto implements CreateApiKeyRequest {
  @ApiProperty({ maxLength: MAX_KEY_NAME_CHARS, example: 'Alice laptop' })
  @IsString({ message: 'name must be a string' })
  @Matches(/\S/, { message: 'name must contain a visible character' })
  @MaxLength(MAX_KEY_NAME_CHARS, { message: `name must be at most ${MAX_KEY_NAME_CHARS} characters` })
  name!: string;

  @ApiProperty({
    enum: API_KEY_ROLES,
    description: 'admin: everything; user: chat, search, own conversations',
  })
  @IsIn(API_KEY_ROLES as ApiKeyRole[], { message: `role must be one of ${API_KEY_ROLES.join(', ')}` })
  role!: ApiKeyRole;
}
