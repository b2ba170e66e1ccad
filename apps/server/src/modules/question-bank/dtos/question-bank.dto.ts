import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import type { QuestionBankInput } from '@lumina/shared';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';

export class CreateQuestionBankDto implements QuestionBankInput {
  @ApiProperty({ maxLength: 200, example: 'Runbook questions' })
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ maxLength: 2000, example: 'Questions the database runbook answers' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, example: null })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsUUID('all', { message: 'templateId must be a template id (UUID)' })
  templateId?: string | null;

  @ApiPropertyOptional({ type: [String], example: ['runbook'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];
}

export class UpdateQuestionBankDto
  extends PartialType(CreateQuestionBankDto)
  implements Partial<QuestionBankInput> {}
