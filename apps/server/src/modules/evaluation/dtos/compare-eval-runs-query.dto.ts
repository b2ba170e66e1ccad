import { ApiProperty } from '@nestjs/swagger';
import type { CompareEvalRunsQuery } from '@lumina/shared';
import { IsUUID } from 'class-validator';

export class CompareEvalRunsQueryDto implements CompareEvalRunsQuery {
  @ApiProperty({ format: 'uuid', description: 'Run A (the baseline)' })
  @IsUUID('all', { message: 'a must be an evaluation run id (UUID)' })
  a!: string;

  @ApiProperty({ format: 'uuid', description: 'Run B (compared with A: B − A)' })
  @IsUUID('all', { message: 'b must be an evaluation run id (UUID)' })
  b!: string;
}
