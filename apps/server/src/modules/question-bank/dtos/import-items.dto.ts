import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ImportFormat, ImportRequest } from '@lumina/shared';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';

export const IMPORT_FORMATS: readonly ImportFormat[] = ['beir', 'csv', 'json'];
export const MAX_IMPORT_ROWS = 5000;

/**
 * Import rows into a bank. `beir`: `queries` (queries.jsonl text) and `qrels` (qrels TSV text); `csv`:
 * `csv` (header row, see the export); `json`: `items` (objects shaped like POST items).
 */
export class ImportItemsDto implements ImportRequest {
  @ApiProperty({ enum: IMPORT_FORMATS, example: 'json' })
  @IsIn(IMPORT_FORMATS as ImportFormat[], { message: `format must be one of ${IMPORT_FORMATS.join(', ')}` })
  format!: ImportFormat;

  @ApiPropertyOptional({
    description: 'beir: the queries.jsonl text',
    example: '{"_id": "q1", "text": "How do I promote the standby replica?"}',
  })
  @ValidateIf((dto: ImportItemsDto) => dto.format === 'beir')
  @IsString({ message: 'queries (the queries.jsonl text) is required for format beir' })
  queries?: string;

  @ApiPropertyOptional({
    description: 'beir: the qrels/<split>.tsv text',
    example: 'query-id\tcorpus-id\tscore\n',
  })
  @ValidateIf((dto: ImportItemsDto) => dto.format === 'beir')
  @IsString({ message: 'qrels (the qrels TSV text) is required for format beir' })
  qrels?: string;

  @ApiPropertyOptional({
    description: 'csv: the CSV text, with a header row',
    example: 'question,in_scope\r\nHow do I promote the standby replica?,true\r\n',
  })
  @ValidateIf((dto: ImportItemsDto) => dto.format === 'csv')
  @IsString({ message: 'csv (the CSV text) is required for format csv' })
  csv?: string;

  @ApiPropertyOptional({
    description: 'json: the items (an `id` from an export matches the item it came from)',
    type: [Object],
    example: [{ question: 'How do I promote the standby replica?', inScope: true }],
  })
  @ValidateIf((dto: ImportItemsDto) => dto.format === 'json')
  @IsArray({ message: 'items (an array) is required for format json' })
  @ArrayMaxSize(MAX_IMPORT_ROWS, { message: `items must hold at most ${MAX_IMPORT_ROWS} rows` })
  items?: unknown[];

  @ApiPropertyOptional({
    description: 'Resolve external document ids only among this dataset',
    example: 'scifact',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  dataset?: string;

  @ApiPropertyOptional({ description: 'Validate and report without writing', example: true })
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({ description: 'Language of rows that do not say (default en)', example: 'en' })
  @IsOptional()
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'language must be a language tag like "en"' })
  language?: string;
}
