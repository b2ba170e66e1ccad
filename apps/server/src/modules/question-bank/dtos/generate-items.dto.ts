import { ApiProperty } from '@nestjs/swagger';
import type { GenerateItemsRequest } from '@lumina/shared';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsUUID, Max, Min } from 'class-validator';

export const MAX_GENERATE_COUNT = 200;

export class GenerateItemsDto implements GenerateItemsRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'templateId must be a template id (UUID)' })
  templateId!: string;

  @ApiProperty({ type: [String], description: 'Documents whose passages are sampled' })
  @IsArray({ message: 'documentIds must be an array of document ids' })
  @ArrayMinSize(1, { message: 'documentIds must name at least one document' })
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true, message: 'documentIds must be document ids (UUIDs)' })
  documentIds!: string[];

  @ApiProperty({ minimum: 1, maximum: MAX_GENERATE_COUNT })
  @IsInt({ message: 'count must be an integer' })
  @Min(1, { message: 'count must be 1 or more' })
  @Max(MAX_GENERATE_COUNT, { message: `count must be at most ${MAX_GENERATE_COUNT}` })
  count!: number;
}
