import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { QUESTION_TEMPLATE_KINDS } from '@lumina/shared';
import type { QuestionTemplateInput, QuestionTemplateKind } from '@lumina/shared';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export class CreateQuestionTemplateDto implements QuestionTemplateInput {
  @ApiProperty({ maxLength: 200, example: 'Definitions' })
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @Matches(/\S/, { message: 'name must not be only spaces' })
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: QUESTION_TEMPLATE_KINDS, example: 'definition' })
  @IsIn(QUESTION_TEMPLATE_KINDS as QuestionTemplateKind[], {
    message: `kind must be one of ${QUESTION_TEMPLATE_KINDS.join(', ')}`,
  })
  kind!: QuestionTemplateKind;

  @ApiPropertyOptional({
    type: String,
    maxLength: 2000,
    nullable: true,
    description: 'null clears it',
    example: 'Questions that ask what a term means',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiProperty({
    maxLength: 8000,
    description:
      'Prompt for the LLM generator; placeholders {{title}}, {{heading}}, {{passage}}, {{language}}',
    example: 'Write one question that this passage from {{title}} answers, in {{language}}: {{passage}}',
  })
  @IsString()
  @IsNotEmpty({ message: 'promptTemplate must not be empty' })
  @Matches(/\S/, { message: 'promptTemplate must not be only spaces' })
  @MaxLength(8000)
  promptTemplate!: string;
}

export class UpdateQuestionTemplateDto
  extends PartialType(CreateQuestionTemplateDto)
  implements Partial<QuestionTemplateInput> {}
