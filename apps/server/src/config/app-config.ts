import { Inject } from '@nestjs/common';

/** Injection token for the validated environment (type Env). */
export const APP_CONFIG = Symbol('APP_CONFIG');

export const InjectConfig = (): ParameterDecorator => Inject(APP_CONFIG);
