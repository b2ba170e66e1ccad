import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiKeyRole } from '@lumina/shared';
import type { Request } from 'express';
import { Authenticator, forbiddenMessage } from './authenticator';
import { IS_PUBLIC, REQUIRED_ROLES, setPrincipal } from './principal';

/**
 * The global guard: every route needs a principal (any role) unless marked @Public(); @Roles('admin')
 * narrows it. No key (or a wrong one): 401; a key without the role: 403.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const verdict = await this.authenticator.resolve(request);
    if (!verdict.ok) throw new UnauthorizedException(verdict.message);
    const roles = this.reflector.getAllAndOverride<ApiKeyRole[] | undefined>(REQUIRED_ROLES, targets);
    if (roles && !roles.includes(verdict.principal.role)) {
      throw new ForbiddenException(forbiddenMessage(verdict.principal, roles));
    }
    setPrincipal(request, verdict.principal);
    return true;
  }
}
