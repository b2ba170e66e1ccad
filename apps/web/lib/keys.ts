/**
 * API keys as the keys page shows and edits them: the grants editor's state (each collection: none,
 * read or write) and the request bodies built from it, and the labels of a key's role, collections,
 * prefix and state.
 */
import type {
  ApiKeyRole,
  ApiKeySummary,
  Collection,
  CollectionAccessLevel,
  CollectionGrant,
  CreateApiKeyRequest,
  KeyGrantsRequest,
} from '@lumina/shared';
import { collectionName } from './collections';
import { formatDateTime } from './format';

type Named = Pick<Collection, 'id' | 'name'>;
type Live = Pick<Collection, 'id' | 'name' | 'deleting'>;

/** What the editor offers for one collection: no access, read, or write (read and change documents). */
export type GrantChoice = 'none' | CollectionAccessLevel;

/** The editor's state: collection id → choice; a collection left out has none. */
export type GrantsDraft = Readonly<Record<string, GrantChoice>>;

/** A new key as the form holds it. */
export interface KeyForm {
  name: string;
  role: ApiKeyRole;
  grants: GrantsDraft;
}

export const EMPTY_KEY_FORM: KeyForm = { name: '', role: 'user', grants: {} };

export const GRANT_CHOICES: readonly { value: GrantChoice; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'read', label: 'Read' },
  { value: 'write', label: 'Write' },
];

export const ROLE_CHOICES: readonly { value: ApiKeyRole; label: string; hint: string }[] = [
  {
    value: 'user',
    label: 'User',
    hint: 'Chats and searches in the collections granted below; write also uploads, moves and deletes their documents and manages their question banks and evaluations.',
  },
  {
    value: 'admin',
    label: 'Admin',
    hint: 'Everything: every collection, documents, question banks, evaluations and API keys.',
  },
];

/** The editor's state for a key's grants. */
export function draftOfGrants(grants: readonly CollectionGrant[]): GrantsDraft {
  return Object.fromEntries(grants.map((grant) => [grant.collectionId, grant.access]));
}

/** The draft with one collection's choice changed ("none" takes the collection out). */
export function setGrantChoice(draft: GrantsDraft, collectionId: string, choice: GrantChoice): GrantsDraft {
  const next: Record<string, GrantChoice> = { ...draft };
  if (choice === 'none') delete next[collectionId];
  else next[collectionId] = choice;
  return next;
}

/** A collection's choice in the draft. */
export function grantChoiceOf(draft: GrantsDraft, collectionId: string): GrantChoice {
  return draft[collectionId] ?? 'none';
}

/**
 * The collections the editor lists: every one that is not being deleted (in the list's order), then any
 * the draft grants that the list does not know (named by their id's start), so saving keeps them.
 */
export function editorCollections(known: readonly Live[] | null, draft: GrantsDraft): Named[] {
  const listed = (known ?? []).filter((collection) => !collection.deleting);
  const knownIds = new Set((known ?? []).map((collection) => collection.id));
  const unknown = Object.keys(draft)
    .filter((id) => !knownIds.has(id))
    .map((id) => ({ id, name: collectionName(id, null) }));
  return [...listed.map(({ id, name }) => ({ id, name })), ...unknown];
}

/**
 * The grants a draft asks for, in the list's order: a collection being deleted is left out (it is going
 * away, and naming it once it is gone would be refused).
 */
export function grantsOfDraft(draft: GrantsDraft, known: readonly Live[] | null = null): CollectionGrant[] {
  const deleting = new Set((known ?? []).filter((item) => item.deleting).map((item) => item.id));
  const order = new Map((known ?? []).map((collection, index) => [collection.id, index]));
  return Object.entries(draft)
    .filter((entry): entry is [string, CollectionAccessLevel] => entry[1] !== 'none')
    .filter(([collectionId]) => !deleting.has(collectionId))
    .map(([collectionId, access]) => ({ collectionId, access }))
    .sort(
      (a, b) =>
        (order.get(a.collectionId) ?? Number.MAX_SAFE_INTEGER) -
        (order.get(b.collectionId) ?? Number.MAX_SAFE_INTEGER),
    );
}

/** POST /auth/keys: the trimmed name and the role; a user key's grants (an admin key reaches every collection). */
export function createKeyRequest(form: KeyForm, known: readonly Live[] | null = null): CreateApiKeyRequest {
  const name = form.name.trim();
  if (form.role === 'admin') return { name, role: 'admin' };
  return { name, role: 'user', grants: grantsOfDraft(form.grants, known) };
}

/** PUT /auth/keys/:id/grants: the user key's grants, replacing the ones it had. */
export function keyGrantsRequest(draft: GrantsDraft, known: readonly Live[] | null = null): KeyGrantsRequest {
  return { grants: grantsOfDraft(draft, known) };
}

/** Whether saving the draft would change the key's grants. */
export function grantsChanged(
  key: Pick<ApiKeySummary, 'grants'>,
  draft: GrantsDraft,
  known: readonly Live[] | null = null,
): boolean {
  const before = new Map(key.grants.map((grant) => [grant.collectionId, grant.access]));
  const after = grantsOfDraft(draft, known);
  return (
    after.length !== before.size || after.some((grant) => before.get(grant.collectionId) !== grant.access)
  );
}

/** Whether the form can be sent: a name with a visible character. */
export function canCreateKey(form: KeyForm): boolean {
  return form.name.trim().length > 0;
}

/** A user key that is not revoked: the only kind whose grants may be set. */
export function canEditGrants(key: Pick<ApiKeySummary, 'role' | 'revokedAt'>): boolean {
  return key.role === 'user' && key.revokedAt === null;
}

export function roleLabel(role: ApiKeyRole): string {
  return role === 'admin' ? 'Admin' : 'User';
}

/** "read" or "write" as a grant is listed. */
export function accessLabel(access: CollectionAccessLevel): string {
  return access === 'write' ? 'write' : 'read';
}

/** A key's grants as "Runbooks (read)", "Handbook (write)", by collection name. */
export function grantLabels(
  grants: readonly CollectionGrant[],
  known: readonly Named[] | null,
): { collectionId: string; label: string; access: CollectionAccessLevel }[] {
  return grants.map((grant) => ({
    collectionId: grant.collectionId,
    access: grant.access,
    label: `${collectionName(grant.collectionId, known)} (${accessLabel(grant.access)})`,
  }));
}

/** What a key reaches, when there is no grant to list. */
export function keyReachLabel(key: Pick<ApiKeySummary, 'role' | 'grants'>): string | null {
  if (key.role === 'admin') return 'Every collection';
  return key.grants.length === 0 ? 'No collection' : null;
}

/** "lum_ab12cd…": how a key starts, to tell keys apart. */
export function prefixLabel(prefix: string): string {
  return `lum_${prefix}…`;
}

export function lastUsedLabel(lastUsedAt: string | null): string {
  return lastUsedAt ? formatDateTime(lastUsedAt) : 'Never';
}

/** "Active", or "Revoked 2026-03-01 10:20". */
export function keyStateLabel(key: Pick<ApiKeySummary, 'revokedAt'>): string {
  return key.revokedAt ? `Revoked ${formatDateTime(key.revokedAt)}` : 'Active';
}

/** The question before revoking a key (`own`: the key this page is signed in with). */
export function revokeQuestion(key: Pick<ApiKeySummary, 'name' | 'role'>, own = false): string {
  const question = `Revoke the ${key.role} key "${key.name}"? Every request with it is refused from now on; this cannot be undone.`;
  return own ? `${question} You are signed in with it: this page will need another key.` : question;
}

/** The note beside a newly created key: it is shown this once. */
export const SHOWN_ONCE_NOTE =
  'Copy the key now and keep it somewhere safe: Lumina keeps only its hash, so it cannot be shown again (a lost key is revoked and replaced).';
