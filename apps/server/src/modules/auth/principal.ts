import { createParamDecorator, SetMetadata } from '@nestjs/common';
import type { CustomDecorator, ExecutionContext } from '@nestjs/common';
import type { ApiKeyRole, CollectionGrant } from '@lumina/shared';

/** Who a request acts as: an API key (or, in local mode, the local admin key for direct loopback clients). */
export interface Principal {
  keyId: string;
  name: string;
  role: ApiKeyRole;
  /** `key`: the request presented this key; `loopback`: a keyless direct-loopback request in local mode. */
  via: 'key' | 'loopback';
  /** A user key's collections; empty for an admin key, which reaches every collection. */
  grants: readonly CollectionGrant[];
}

/** Which collections a principal reaches: every one (admin), or those its grants name. */
export type CollectionAccess =
  { all: true } | { all: false; read: ReadonlySet<string>; write: ReadonlySet<string> };

export function collectionAccess(principal: Principal): CollectionAccess {
  if (principal.role === 'admin') return { all: true };
  return {
    all: false,
    read: new Set(principal.grants.map((grant) => grant.collectionId)),
    write: new Set(
      principal.grants.filter((grant) => grant.access === 'write').map((grant) => grant.collectionId),
    ),
  };
}

/** Whether the access reads collection `id`. */
export function canRead(access: CollectionAccess, id: string): boolean {
  return access.all || access.read.has(id);
}

/** Whether the access changes collection `id`'s documents. */
export function canWrite(access: CollectionAccess, id: string): boolean {
  return access.all || access.write.has(id);
}

/** The collections the access reads, as a list filter: null for every collection (an admin key). */
export function readableIds(access: CollectionAccess): string[] | null {
  return access.all ? null : [...access.read];
}

/** Every collection: what the server's own work (jobs, the CLI, evaluations) reaches. */
export const ALL_COLLECTIONS: CollectionAccess = { all: true };

export const IS_PUBLIC = 'lumina:public';
export const REQUIRED_ROLES = 'lumina:roles';

/** The route answers without a key (health checks). */
export const Public = (): CustomDecorator => SetMetadata(IS_PUBLIC, true);

/** The route (or every route of the controller) needs one of these roles; without it: any key. */
export const Roles = (...roles: ApiKeyRole[]): CustomDecorator => SetMetadata(REQUIRED_ROLES, roles);

const PRINCIPAL = Symbol('lumina:principal');

type WithPrincipal = { [PRINCIPAL]?: Principal };

export function setPrincipal(request: object, principal: Principal): void {
  (request as WithPrincipal)[PRINCIPAL] = principal;
}

export function principalOf(request: object): Principal | undefined {
  return (request as WithPrincipal)[PRINCIPAL];
}

/** The authenticated principal of the request (set by the global AuthGuard before any handler runs). */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => {
    const principal = principalOf(context.switchToHttp().getRequest<object>());
    if (!principal) throw new Error('CurrentPrincipal used on a route the AuthGuard did not authenticate');
    return principal;
  },
);
