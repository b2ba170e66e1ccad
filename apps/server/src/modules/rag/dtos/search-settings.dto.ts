import { ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_SETTINGS, ENHANCEMENT_MODES, RANKERS, SETTINGS_LIMITS } from '@lumina/shared';
import type { EnhancementMode, Ranker, SearchSettings } from '@lumina/shared';
import {
  ArrayMaxSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsUUID,
  Max,
  Min,
} from 'class-validator';

const ENHANCEMENT_MESSAGE = (name: string) => `${name} must be true, false or "adaptive"`;

/** Per-request overrides of DEFAULT_SETTINGS (libs/shared); unknown keys are rejected. */
export class SearchSettingsDto implements Partial<SearchSettings> {
  @ApiPropertyOptional({
    description:
      'Multi-query expansion (LLM, or pseudo-relevance feedback offline): true, false, or "adaptive" ' +
      "(only where the original query's fitted confidence is under the expansion policy's threshold)",
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['adaptive'] }],
    example: DEFAULT_SETTINGS.enableQueryExpansion,
  })
  @IsOptional()
  @IsIn(ENHANCEMENT_MODES as EnhancementMode[], { message: ENHANCEMENT_MESSAGE('enableQueryExpansion') })
  enableQueryExpansion?: EnhancementMode;

  @ApiPropertyOptional({
    description: 'Hypothetical answer passage searched alongside the query: true, false, or "adaptive"',
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['adaptive'] }],
    example: DEFAULT_SETTINGS.enableHyDE,
  })
  @IsOptional()
  @IsIn(ENHANCEMENT_MODES as EnhancementMode[], { message: ENHANCEMENT_MESSAGE('enableHyDE') })
  enableHyDE?: EnhancementMode;

  @ApiPropertyOptional({ enum: RANKERS, example: DEFAULT_SETTINGS.ranker })
  @IsOptional()
  @IsIn(RANKERS as Ranker[], { message: `ranker must be one of ${RANKERS.join(', ')}` })
  ranker?: Ranker;

  @ApiPropertyOptional({ example: DEFAULT_SETTINGS.enableRerank })
  @IsOptional()
  @IsBoolean()
  enableRerank?: boolean;

  @ApiPropertyOptional({
    minimum: SETTINGS_LIMITS.topK.min,
    maximum: SETTINGS_LIMITS.topK.max,
    example: DEFAULT_SETTINGS.topK,
  })
  @IsOptional()
  @IsInt()
  @Min(SETTINGS_LIMITS.topK.min)
  @Max(SETTINGS_LIMITS.topK.max)
  topK?: number;

  @ApiPropertyOptional({
    minimum: SETTINGS_LIMITS.candidateK.min,
    maximum: SETTINGS_LIMITS.candidateK.max,
    example: DEFAULT_SETTINGS.candidateK,
  })
  @IsOptional()
  @IsInt()
  @Min(SETTINGS_LIMITS.candidateK.min)
  @Max(SETTINGS_LIMITS.candidateK.max)
  candidateK?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1,
    description: 'Minimum cosine similarity to the query',
    example: DEFAULT_SETTINGS.minScore,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(SETTINGS_LIMITS.minScore.min)
  @Max(SETTINGS_LIMITS.minScore.max)
  minScore?: number;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    description: 'Search only these documents (empty: all)',
    example: [],
  })
  @IsOptional()
  @IsUUID('all', { each: true, message: 'documentIds must be document ids (UUIDs)' })
  @ArrayMaxSize(1000)
  documentIds?: string[];

  @ApiPropertyOptional({
    minimum: SETTINGS_LIMITS.expansionCount.min,
    maximum: SETTINGS_LIMITS.expansionCount.max,
    example: DEFAULT_SETTINGS.expansionCount,
  })
  @IsOptional()
  @IsInt()
  @Min(SETTINGS_LIMITS.expansionCount.min)
  @Max(SETTINGS_LIMITS.expansionCount.max)
  expansionCount?: number;
}
