import type { MobilityDeps } from './app';
import { createKnexApiKeyRepository } from './features/api-keys/api-keys.repository';
import { createApiKeyService } from './features/api-keys/api-keys.service';

/** Wires the feature services once per process; the HTTP app and the worker share this. */
export function buildServices({ db }: Pick<MobilityDeps, 'db' | 'redis' | 'config' | 'logger'>) {
  const apiKeys = createApiKeyService(createKnexApiKeyRepository(db), { tokenPrefix: 'mk_' });
  return { apiKeys };
}

export type MobilityServices = ReturnType<typeof buildServices>;
