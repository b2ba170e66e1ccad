import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../common/errors/error-body';

export const RESTARTING_MESSAGE = 'The server is restarting. Please try again in a moment.';

/**
 * Counts the requests in flight and, once a shutdown began, answers new ones (on connections that were
 * already open) with 503 and `Connection: close`, so the server can stop without cutting work off.
 */
export class HttpDrain {
  private draining = false;
  private active = 0;
  private waiters: (() => void)[] = [];

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (this.draining) {
      response.setHeader('Connection', 'close');
      sendError(response, 503, 'Service Unavailable', RESTARTING_MESSAGE);
      return;
    }
    this.active += 1;
    let counted = true;
    response.once('close', () => {
      if (!counted) return;
      counted = false;
      this.active -= 1;
      if (this.active === 0) for (const wake of this.waiters.splice(0)) wake();
    });
    next();
  };

  get inFlight(): number {
    return this.active;
  }

  begin(): void {
    this.draining = true;
  }

  /** Resolves true once no request is in flight, or false after `ms`. */
  settled(ms: number): Promise<boolean> {
    if (this.active === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

const drains = new WeakMap<INestApplication, HttpDrain>();

/** Install a drain as the app's first middleware (createHttpApp does this). */
export function installHttpDrain(app: INestApplication): HttpDrain {
  const drain = new HttpDrain();
  app.use(drain.middleware);
  drains.set(app, drain);
  return drain;
}

export function httpDrainOf(app: INestApplication): HttpDrain | undefined {
  return drains.get(app);
}
