// A program's own host name (docs/self-hosting.md#a-programs-own-host-name): the operator's
// reverse proxy sends the host to the collector as it came (Host, or X-Forwarded-Host with
// TRUST_PROXY), and `/` there opens the program's public page, or its portal while the page
// is off, instead of the dashboard. Every other path answers as on the collector's own host.

import type Router from '@koa/router';
import type { Db } from '../../platform/db/db.js';
import { findProgram } from '../programs/service.js';
import { programOfHost } from './service.js';

export function mountBrandHosts(router: Router, db: Db): void {
  router.get('/', async (ctx, next) => {
    const programId = await programOfHost(db, ctx.hostname);
    const program = programId === undefined ? undefined : await findProgram(db, programId);
    if (!program) return next();
    ctx.status = 302;
    ctx.redirect(program.page_enabled === 1 && program.slug ? `/p/${encodeURIComponent(program.slug)}/` : '/portal/');
  });
}
