import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';

/** The health check's question to the database: does it answer at all? */
@Injectable()
export class DatabaseProbeRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  async ping(): Promise<void> {
    await this.manager.query('SELECT 1');
  }
}
