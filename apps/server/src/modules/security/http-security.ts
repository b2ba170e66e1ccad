import type { INestApplication } from '@nestjs/common';
import helmet from 'helmet';
import { crossSiteGuard } from '../auth/cross-site-guard';
import type { CrossSitePolicy } from '../auth/cross-site-guard';
import { limitedBodyParsers } from './body-parsers';
import { refuseNulInUrl } from './refuse-nul-in-url';

/**
 * Security headers (helmet), the cross-site guard (local mode: loopback Host, known Origin, no keyless
 * forms) and size-limited body parsers, applied before any route. The content
 * security policy lets the API docs page (/api/docs: its own script, inline styles, data: images) work.
 */
export function applyHttpSecurity(
  app: INestApplication,
  options: { bodyLimit: string; crossSite: CrossSitePolicy },
): void {
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          // Served over plain HTTP on loopback by default: do not ask browsers to upgrade.
          upgradeInsecureRequests: null,
        },
      },
    }),
  );
  app.use(crossSiteGuard(options.crossSite));
  app.use(refuseNulInUrl);
  for (const parser of limitedBodyParsers(options.bodyLimit)) app.use(parser);
}
