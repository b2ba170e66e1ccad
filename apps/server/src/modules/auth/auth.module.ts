import { Module } from '@nestjs/common';
import { AdminGuard } from './admin.guard';

/** Who may do what. For now: the admin credential guarding the operator pages. */
@Module({ providers: [AdminGuard], exports: [AdminGuard] })
export class AuthModule {}
