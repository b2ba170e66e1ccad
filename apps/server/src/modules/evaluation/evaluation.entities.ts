import { AblationEntity } from './entities/ablation.entity';
import { EvalRunEntity } from './entities/eval-run.entity';

/** The evaluation module's tables: runs and ablations. */
export const EVALUATION_ENTITIES = [EvalRunEntity, AblationEntity];
