import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateTextDocumentRequest } from '@lumina/shared';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { DocumentLanguage } from './document-language';

export const MAX_TITLE_CHARS = 300;

/** POST /documents/text: a document given as text (identity: the sha256 of the text's UTF-8 bytes). */
export class CreateTextDocumentDto implements CreateTextDocumentRequest {
  @ApiProperty({ maxLength: MAX_TITLE_CHARS, example: 'Failover runbook' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'title must be a string' })
  @Matches(/\S/, { message: 'title must not be empty' })
  @MaxLength(MAX_TITLE_CHARS, { message: `title must be shorter than ${MAX_TITLE_CHARS} characters` })
  title!: string;

  @ApiProperty({ example: '# Failover\n\nPromote the standby replica, then repoint the writers.' })
  @IsString({ message: 'text must be a string' })
  @Matches(/\S/, { message: 'text must contain words, not only spaces' })
  text!: string;

  @ApiPropertyOptional({
    enum: ['plain', 'markdown'],
    default: 'plain',
    description: 'markdown: cut at its headings; plain: cut by sentences',
  })
  @IsOptional()
  @IsIn(['plain', 'markdown'], { message: 'format must be plain or markdown' })
  format?: 'plain' | 'markdown';

  @DocumentLanguage()
  language?: string;
}
