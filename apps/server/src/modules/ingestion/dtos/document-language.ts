import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { DOCUMENT_LANGUAGES } from '@lumina/shared';

/** The optional `language` of an upload: an ISO 639-1 code that overrides detection. */
export function DocumentLanguage(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      enum: DOCUMENT_LANGUAGES,
      example: 'zh',
      description:
        'ISO 639-1 code of the language the text is written in: it picks the stemming and word ' +
        'segmentation. Detected from the text when absent.',
    }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() || undefined : value,
    ),
    IsOptional(),
    IsIn(DOCUMENT_LANGUAGES, {
      message: 'language must be an ISO 639-1 code such as en, de or zh',
    }),
  );
}
