import type { AuthIdentity } from '@lumina/shared';
import { ApiError } from '../lib/api-errors';
import { createIdentityStore, keepIdentity, loadIdentity } from './identity.store';

const admin: AuthIdentity = { id: 'k-admin', name: 'Ops', role: 'admin', grants: [], mode: 'keys' };
const user: AuthIdentity = {
  id: 'k-user',
  name: 'Alice',
  role: 'user',
  grants: [{ collectionId: 'c-ops', access: 'read' }],
  mode: 'keys',
};

describe('identity store', () => {
  it('keeps whom the server sees with a key, noting the key', async () => {
    const store = createIdentityStore();
    await loadIdentity({ getIdentity: async () => admin }, store, 'lum_admin');
    expect(store.getState()).toMatchObject({ identity: admin, loadState: 'ready', loadedFor: 'lum_admin' });
  });

  it('knows nobody when the server refuses the request', async () => {
    const store = createIdentityStore();
    const refused = new ApiError('unauthorized', 'Sign in.', 'GET /auth/me → 401', 401);
    await loadIdentity(
      {
        getIdentity: async () => {
          throw refused;
        },
      },
      store,
      null,
    );
    expect(store.getState()).toMatchObject({ identity: null, loadState: 'error', loadedFor: null });
  });

  it("drops an earlier key's answer that arrives after the next key's, and hides it while the next loads", async () => {
    const store = createIdentityStore();
    await loadIdentity({ getIdentity: async () => admin }, store, 'lum_admin');

    let answerFirst: (identity: AuthIdentity) => void = () => undefined;
    const slow = loadIdentity(
      { getIdentity: () => new Promise<AuthIdentity>((resolve) => (answerFirst = resolve)) },
      store,
      'lum_other',
    );
    // Another key's identity is not shown as if it were this one's.
    expect(store.getState()).toMatchObject({ identity: null, loadState: 'loading', loadedFor: 'lum_other' });

    await loadIdentity({ getIdentity: async () => user }, store, 'lum_user');
    answerFirst(admin);
    await slow;
    expect(store.getState()).toMatchObject({ identity: user, loadedFor: 'lum_user' });
  });

  it('keeps the identity a sign-in checked, over a load still under way', async () => {
    const store = createIdentityStore();
    let answer: (identity: AuthIdentity) => void = () => undefined;
    const pending = loadIdentity(
      { getIdentity: () => new Promise<AuthIdentity>((resolve) => (answer = resolve)) },
      store,
      null,
    );
    keepIdentity(user, 'lum_user', store);
    answer({ ...admin, mode: 'local' });
    await pending;
    expect(store.getState()).toMatchObject({ identity: user, loadState: 'ready', loadedFor: 'lum_user' });
  });
});
