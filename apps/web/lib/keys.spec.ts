import { createApiKeyRequestSchema, keyGrantsRequestSchema } from '@lumina/shared';
import type { ApiKeySummary } from '@lumina/shared';
import {
  canCreateKey,
  canEditGrants,
  createKeyRequest,
  draftOfGrants,
  editorCollections,
  EMPTY_KEY_FORM,
  grantChoiceOf,
  grantLabels,
  grantsChanged,
  grantsOfDraft,
  keyGrantsRequest,
  keyReachLabel,
  keyStateLabel,
  lastUsedLabel,
  prefixLabel,
  revokeQuestion,
  roleLabel,
  setGrantChoice,
} from './keys';
import { collection } from './testing/collections';

const RUNBOOKS = '00000000-0000-4000-8000-00000000000a';
const HANDBOOK = '00000000-0000-4000-8000-00000000000b';
const POLICIES = '00000000-0000-4000-8000-00000000000c';
const OLD = '00000000-0000-4000-8000-00000000000d';
const GONE = '00000000-0000-4000-8000-00000000000e';

const known = [
  collection(RUNBOOKS, 'Runbooks'),
  collection(HANDBOOK, 'Handbook'),
  collection(POLICIES, 'Policies'),
  collection(OLD, 'Old', { deleting: true }),
];

function key(change: Partial<ApiKeySummary> = {}): ApiKeySummary {
  return {
    id: 'k1',
    name: 'Alice laptop',
    role: 'user',
    grants: [],
    prefix: 'ab12cd',
    createdAt: '2026-12-01T10:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
    ...change,
  };
}

describe('the grants editor', () => {
  it('starts from a key’s grants and changes one collection at a time; "none" takes it out', () => {
    let draft = draftOfGrants([{ collectionId: RUNBOOKS, access: 'read' }]);
    expect(grantChoiceOf(draft, RUNBOOKS)).toBe('read');
    expect(grantChoiceOf(draft, HANDBOOK)).toBe('none');

    draft = setGrantChoice(draft, HANDBOOK, 'write');
    draft = setGrantChoice(draft, RUNBOOKS, 'none');
    expect(draft).toEqual({ [HANDBOOK]: 'write' });
  });

  it('lists the collections not being deleted, then granted ones the list does not know', () => {
    const draft = { [GONE]: 'read' as const, [OLD]: 'read' as const };
    expect(editorCollections(known, draft)).toEqual([
      { id: RUNBOOKS, name: 'Runbooks' },
      { id: HANDBOOK, name: 'Handbook' },
      { id: POLICIES, name: 'Policies' },
      { id: GONE, name: `collection ${GONE.slice(0, 8)}` },
    ]);
    expect(editorCollections(null, {})).toEqual([]);
  });

  it('asks for the chosen grants in the list’s order, leaving out collections being deleted', () => {
    const draft = { [POLICIES]: 'write' as const, [OLD]: 'read' as const, [RUNBOOKS]: 'read' as const };
    expect(grantsOfDraft(draft, known)).toEqual([
      { collectionId: RUNBOOKS, access: 'read' },
      { collectionId: POLICIES, access: 'write' },
    ]);
    // A collection the list does not know (it may be partial) is kept, after the known ones.
    expect(grantsOfDraft({ [GONE]: 'read', [HANDBOOK]: 'read' }, known)).toEqual([
      { collectionId: HANDBOOK, access: 'read' },
      { collectionId: GONE, access: 'read' },
    ]);
  });

  it('tells whether saving would change the key’s grants', () => {
    const current = key({
      grants: [
        { collectionId: RUNBOOKS, access: 'read' },
        { collectionId: HANDBOOK, access: 'write' },
      ],
    });
    expect(grantsChanged(current, draftOfGrants(current.grants), known)).toBe(false);
    expect(grantsChanged(current, { [HANDBOOK]: 'write', [RUNBOOKS]: 'read' }, known)).toBe(false);
    expect(grantsChanged(current, { [HANDBOOK]: 'read', [RUNBOOKS]: 'read' }, known)).toBe(true);
    expect(grantsChanged(current, { [HANDBOOK]: 'write' }, known)).toBe(true);
    expect(grantsChanged(key(), {}, known)).toBe(false);
  });
});

describe('the request bodies', () => {
  it('creates a user key with its grants and a trimmed name, valid for the contract', () => {
    const body = createKeyRequest(
      { name: '  Alice laptop ', role: 'user', grants: { [HANDBOOK]: 'write', [RUNBOOKS]: 'read' } },
      known,
    );
    expect(body).toEqual({
      name: 'Alice laptop',
      role: 'user',
      grants: [
        { collectionId: RUNBOOKS, access: 'read' },
        { collectionId: HANDBOOK, access: 'write' },
      ],
    });
    expect(createApiKeyRequestSchema.safeParse(body).success).toBe(true);
  });

  it('sends a user key without grants as reading nothing', () => {
    expect(createKeyRequest({ ...EMPTY_KEY_FORM, name: 'Kiosk' }, known)).toEqual({
      name: 'Kiosk',
      role: 'user',
      grants: [],
    });
  });

  it('sends no grants for an admin key (it reaches every collection; the server refuses grants on it)', () => {
    const body = createKeyRequest({ name: 'Ops', role: 'admin', grants: { [RUNBOOKS]: 'read' } }, known);
    expect(body).toEqual({ name: 'Ops', role: 'admin' });
    expect(createApiKeyRequestSchema.safeParse(body).success).toBe(true);
  });

  it('replaces a user key’s grants with the draft', () => {
    const body = keyGrantsRequest({ [POLICIES]: 'read', [OLD]: 'write' }, known);
    expect(body).toEqual({ grants: [{ collectionId: POLICIES, access: 'read' }] });
    expect(keyGrantsRequestSchema.safeParse(body).success).toBe(true);
    expect(keyGrantsRequest({}, known)).toEqual({ grants: [] });
  });

  it('needs a name with a visible character before creating', () => {
    expect(canCreateKey(EMPTY_KEY_FORM)).toBe(false);
    expect(canCreateKey({ ...EMPTY_KEY_FORM, name: '   ' })).toBe(false);
    expect(canCreateKey({ ...EMPTY_KEY_FORM, name: 'A' })).toBe(true);
  });

  it('edits the grants of an active user key only', () => {
    expect(canEditGrants(key())).toBe(true);
    expect(canEditGrants(key({ role: 'admin' }))).toBe(false);
    expect(canEditGrants(key({ revokedAt: '2026-12-02T10:00:00.000Z' }))).toBe(false);
  });
});

describe('labels', () => {
  it('names a key’s grants by collection, with read or write', () => {
    expect(
      grantLabels(
        [
          { collectionId: HANDBOOK, access: 'write' },
          { collectionId: GONE, access: 'read' },
        ],
        known,
      ).map((grant) => grant.label),
    ).toEqual(['Handbook (write)', `collection ${GONE.slice(0, 8)} (read)`]);
  });

  it('says what a key reaches when there is no grant to list', () => {
    expect(keyReachLabel(key({ role: 'admin' }))).toBe('Every collection');
    expect(keyReachLabel(key())).toBe('No collection');
    expect(keyReachLabel(key({ grants: [{ collectionId: RUNBOOKS, access: 'read' }] }))).toBeNull();
  });

  it('labels the role, prefix, last use and state', () => {
    expect(roleLabel('admin')).toBe('Admin');
    expect(roleLabel('user')).toBe('User');
    expect(prefixLabel('ab12cd')).toBe('lum_ab12cd…');
    expect(lastUsedLabel(null)).toBe('Never');
    expect(lastUsedLabel('2026-12-03T08:15:30.000Z')).toBe('2026-12-03 08:15');
    expect(keyStateLabel(key())).toBe('Active');
    expect(keyStateLabel(key({ revokedAt: '2026-12-04T09:00:00.000Z' }))).toBe('Revoked 2026-12-04 09:00');
  });

  it('asks before revoking, warning when it is the key signed in with', () => {
    expect(revokeQuestion(key())).toBe(
      'Revoke the user key "Alice laptop"? Every request with it is refused from now on; this cannot be undone.',
    );
    expect(revokeQuestion(key({ role: 'admin' }), true)).toMatch(/admin key .* You are signed in with it/);
  });
});
