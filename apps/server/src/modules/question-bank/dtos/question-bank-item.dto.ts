import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { QUESTION_DIFFICULTIES } from '@lumina/shared';
import type { QuestionBankItemInput, QuestionDifficulty } from '@lumina/shared';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ExpectedSourceDto } from './expected-source.dto';

export const MAX_QUESTION_CHARS = 4000;

export class CreateQuestionBankItemDto implements QuestionBankItemInput {
  @ApiProperty({ maxLength: MAX_QUESTION_CHARS, example: 'How do I promote the standby replica?' })
  @IsString({ message: 'question must be a string' })
  @Matches(/\S/, { message: 'question must not be empty' })
  @MaxLength(MAX_QUESTION_CHARS, {
    message: `question must be shorter than ${MAX_QUESTION_CHARS} characters`,
  })
  question!: string;

  @ApiPropertyOptional({ maxLength: 20000, nullable: true, example: 'Run pg_ctl promote on the standby' })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(20000)
  expectedAnswer?: string | null;

  @ApiPropertyOptional({
    default: true,
    description: 'false: the documents cannot answer it (should refuse)',
  })
  @IsOptional()
  @IsBoolean({ message: 'inScope must be true or false' })
  inScope?: boolean;

  @ApiPropertyOptional({
    type: [ExpectedSourceDto],
    description: 'Documents (id or external id) and/or chunks that answer it; each must exist',
    example: [],
  })
  @IsOptional()
  @IsArray({ message: 'expectedSources must be an array' })
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => ExpectedSourceDto)
  expectedSources?: ExpectedSourceDto[];

  @ApiPropertyOptional({ default: 'en', example: 'en' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, {
    message: 'language must be a language tag like "en" or "pt-BR"',
  })
  language?: string;

  @ApiPropertyOptional({ type: [String], example: ['failover'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ enum: QUESTION_DIFFICULTIES, nullable: true, example: 'easy' })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsIn(QUESTION_DIFFICULTIES as QuestionDifficulty[], {
    message: `difficulty must be one of ${QUESTION_DIFFICULTIES.join(', ')}`,
  })
  difficulty?: QuestionDifficulty | null;
}

export class UpdateQuestionBankItemDto
  extends PartialType(CreateQuestionBankItemDto)
  implements Partial<QuestionBankItemInput> {}

export const MAX_ITEMS_PER_BATCH = 500;
