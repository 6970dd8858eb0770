// What identity gives the routes of owners and partners alike: asking for a reset by e-mail.

import { z } from 'zod';
import { type Reply, route } from '../../api/route.js';
import { requestReset } from '../mail/outbox.js';

/**
 * Asking for a new password by e-mail: 202 whatever the address, in the same time, since
 * only the outbox's sender looks the address up. Without SMTP nothing can be sent, and the
 * answer says so.
 */
export function resetRoute(path: string, kind: 'partner_reset' | 'owner_reset', what: string) {
  return route({
    method: 'post',
    path,
    summary: `Ask for a link to set a new password for ${what}, e-mailed when the address has an account (the answer is the same either way)`,
    access: 'public',
    body: z.strictObject({ email: z.string().max(320) }),
    status: 202,
    response: z.object({ meta: z.object({ emailed: z.boolean() }) }),
    async handle({ db, body, now, outbox }): Promise<Reply> {
      if (!outbox) return { status: 202, body: { meta: { emailed: false } } };
      await requestReset(db, kind, body.email, now);
      outbox.kick();
      return { status: 202, body: { meta: { emailed: true } } };
    },
  });
}
