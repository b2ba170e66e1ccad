import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ExpectedSource } from '@lumina/shared';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';

/** A passage that answers the item: a document (by id or external id) and/or a chunk. */
export class ExpectedSourceDto implements ExpectedSource {
  @ApiPropertyOptional({ description: 'Document id, or the document external id (e.g. a BEIR corpus id)' })
  @ValidateIf((source: ExpectedSourceDto) => source.documentId !== undefined || source.chunkId === undefined)
  @IsString({ message: 'an expected source needs a documentId or a chunkId' })
  @IsNotEmpty({ message: 'documentId must not be empty' })
  @MaxLength(300)
  documentId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'chunkId must be a chunk id (UUID)' })
  chunkId?: string;

  @ApiPropertyOptional({ description: 'Graded relevance; 0 or less is judged not relevant (default 1)' })
  @IsOptional()
  @IsInt({ message: 'grade must be an integer' })
  @Min(-10)
  @Max(10)
  grade?: number;
}
