import { ApiPropertyOptional } from '@nestjs/swagger';
import type { ListQuestionBankItemsQuery } from '@lumina/shared';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto';

export class ListItemsQueryDto extends PageQueryDto implements ListQuestionBankItemsQuery {
  @ApiPropertyOptional({ description: 'Only items with this tag' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  tag?: string;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'inScope must be true or false' })
  inScope?: boolean;
}
