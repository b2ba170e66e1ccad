import { ApiKeyEntity } from './entities/api-key.entity';

/** The auth module's table: API keys. */
export const AUTH_ENTITIES = [ApiKeyEntity];
