import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ExportFormat, ExportQuery } from '@lumina/shared';
import { IsIn, IsOptional } from 'class-validator';

export class ExportQueryDto implements ExportQuery {
  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json' })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'format must be json or csv' })
  format?: ExportFormat;
}
