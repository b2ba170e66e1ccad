import { ApiPropertyOptional } from '@nestjs/swagger';
import { RANKERS, SETTINGS_LIMITS } from '@lumina/shared';
import type { Ranker, SearchSettings } from '@lumina/shared';
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

/** Per-request overrides of DEFAULT_SETTINGS (libs/shared); unknown keys are rejected. */
export class SearchSettingsDto implements Partial<SearchSettings> {
  @ApiPropertyOptional({ description: 'Multi-query expansion (LLM, or pseudo-relevance feedback offline)' })
  @IsOptional()
  @IsBoolean()
  enableQueryExpansion?: boolean;

  @ApiPropertyOptional({ description: 'Hypothetical answer passage searched alongside the query' })
  @IsOptional()
  @IsBoolean()
  enableHyDE?: boolean;

  @ApiPropertyOptional({ enum: RANKERS })
  @IsOptional()
  @IsIn(RANKERS as Ranker[], { message: `ranker must be one of ${RANKERS.join(', ')}` })
  ranker?: Ranker;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  enableRerank?: boolean;

  @ApiPropertyOptional({ minimum: SETTINGS_LIMITS.topK.min, maximum: SETTINGS_LIMITS.topK.max })
  @IsOptional()
  @IsInt()
  @Min(SETTINGS_LIMITS.topK.min)
  @Max(SETTINGS_LIMITS.topK.max)
  topK?: number;

  @ApiPropertyOptional({ minimum: SETTINGS_LIMITS.candidateK.min, maximum: SETTINGS_LIMITS.candidateK.max })
  @IsOptional()
  @IsInt()
  @Min(SETTINGS_LIMITS.candidateK.min)
  @Max(SETTINGS_LIMITS.candidateK.max)
  candidateK?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Minimum cosine similarity to the query' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(SETTINGS_LIMITS.minScore.min)
  @Max(SETTINGS_LIMITS.minScore.max)
  minScore?: number;

  @ApiPropertyOptional({ type: [String], description: 'Search only these documents' })
  @IsOptional()
  @IsUUID('all', { each: true, message: 'documentIds must be document ids (UUIDs)' })
  @ArrayMaxSize(1000)
  documentIds?: string[];

  @ApiPropertyOptional({
    minimum: SETTINGS_LIMITS.expansionCount.min,
    maximum: SETTINGS_LIMITS.expansionCount.max,
  })
  @IsOptional()
  @IsInt()
  @Min(SETTINGS_LIMITS.expansionCount.min)
  @Max(SETTINGS_LIMITS.expansionCount.max)
  expansionCount?: number;
}
