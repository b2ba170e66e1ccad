import { ApiPropertyOptional } from '@nestjs/swagger';
import type { PageQuery } from '@lumina/shared';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_PAGE, MAX_PAGE_LIMIT } from './pagination';

/**
 * `?page=&limit=` of every list endpoint: 1-based page up to MAX_PAGE (beyond: 400); a limit above
 * MAX_PAGE_LIMIT is capped.
 */
export class PageQueryDto implements PageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be an integer' })
  @Min(1, { message: 'page must be 1 or more' })
  @Max(MAX_PAGE, { message: `page must be at most ${MAX_PAGE}` })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be 1 or more' })
  limit?: number;
}
