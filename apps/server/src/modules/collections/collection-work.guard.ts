import { Injectable, SetMetadata } from '@nestjs/common';
import type { CanActivate, CustomDecorator, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ForbiddenError, NotFoundError } from '../../common/errors/domain-errors';
import { canRead, canWrite, collectionAccess, principalOf } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { WorkTargetRepository } from './repositories/work-target.repository';
import type { WorkTarget } from './repositories/work-target.repository';

const WORK_ON = 'lumina:work-on';

interface WorkOnRule {
  target: WorkTarget;
  /** The route or query parameters holding the ids. */
  params: readonly string[];
  from: 'params' | 'query';
}

/** How each target is named in a 404, as the services name it. */
const NAMES: Record<WorkTarget, string> = {
  bank: 'question bank',
  run: 'evaluation run',
  ablation: 'ablation',
  reranker: 'reranker',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The route works on a collection's question bank, evaluation run, ablation or fitted reranker, named by
 * the route parameter `param` (or the query parameters `params`): CollectionWorkGuard lets a user key in
 * only with a write grant on that collection.
 */
export const WorkOn = (
  target: WorkTarget,
  params: string | readonly string[] = 'id',
  from: 'params' | 'query' = 'params',
): CustomDecorator => SetMetadata(WORK_ON, { target, params: [params].flat(), from } satisfies WorkOnRule);

/**
 * Question banks, their items, evaluations, ablations and fitted rerankers belong to a collection, and are
 * that collection's to manage: an admin key manages all of them, a user key those of the collections it
 * holds a write grant on. Something of a collection the key may not read is a 404, word for word as
 * something that does not exist; of one it may only read, a 403 that says a write grant is needed.
 * Lists are filtered by the services (manageableIds). Ids that are not UUIDs pass on to the route's
 * own validation (400).
 */
@Injectable()
export class CollectionWorkGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly targets: WorkTargetRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<WorkOnRule | undefined>(WORK_ON, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const principal = principalOf(request);
    if (!principal) return true;
    const access = collectionAccess(principal);
    if (access.all) return true;
    const source = (rule.from === 'params' ? request.params : request.query) as Record<string, unknown>;
    for (const param of rule.params) {
      const id = source[param];
      if (typeof id !== 'string' || !UUID.test(id)) continue;
      await this.assertManages(access, rule.target, id);
    }
    return true;
  }

  private async assertManages(access: CollectionAccess, target: WorkTarget, id: string): Promise<void> {
    assertManagesIn(access, await this.targets.collectionOf(target, id), `${NAMES[target]} ${id}`);
  }
}

/**
 * The one rule for managing evaluation work in a collection: a collection the access cannot read (or
 * none) is a 404 naming `what` ("question bank <id>"), one it reads without a write grant a 403.
 */
export function assertManagesIn(access: CollectionAccess, collectionId: string | null, what: string): void {
  if (!collectionId || !canRead(access, collectionId)) throw new NotFoundError(`${what} not found`);
  if (!canWrite(access, collectionId)) throw needsWrite(collectionId);
}

/** The collections whose banks, runs and rerankers the access manages, as a list filter (null: all). */
export function manageableIds(access: CollectionAccess): string[] | null {
  return access.all ? null : [...access.write];
}

/** A key that may read a collection but not manage its evaluation work. */
export function needsWrite(collectionId: string): ForbiddenError {
  return new ForbiddenError(
    `This key may read collection ${collectionId} but not manage its question banks, evaluations and ` +
      'rerankers: that needs a write grant on it.',
  );
}
