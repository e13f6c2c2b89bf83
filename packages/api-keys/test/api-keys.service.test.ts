import type { ApiKeyRepository } from '../src/api-keys.repository';
import { createApiKeyService } from '../src/api-keys.service';
import { generateApiToken } from '../src/token-format';

/** A repository that records which of its methods were called; every lookup finds nothing. */
function spyRepository() {
  const calls: string[] = [];
  const repository = new Proxy({} as ApiKeyRepository, {
    get: (_target, name) => async () => {
      calls.push(String(name));
      return undefined;
    },
  });
  return { repository, calls };
}

describe('API key service', () => {
  it('refuses malformed tokens without asking the repository', async () => {
    const { repository, calls } = spyRepository();
    const service = createApiKeyService(repository, { tokenPrefix: 'mk_' });
    const good = generateApiToken('mk_');
    const mistyped = `${good.slice(0, 10)}${good[10] === 'a' ? 'b' : 'a'}${good.slice(11)}`;
    for (const token of ['', 'mk_', 'mk_short', mistyped, generateApiToken('ck_'), `${good}x`]) {
      expect(await service.authenticate(token)).toBeUndefined();
    }
    expect(calls).toEqual([]);
    expect(await service.authenticate(good)).toBeUndefined();
    expect(calls).toEqual(['findUsableByHash']);
  });
});
