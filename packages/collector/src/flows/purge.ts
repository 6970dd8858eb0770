// Deletes what can open nothing any more, of owners and partners alike: sessions idle past
// their lifetime, links an hour past their expiry, invitations past theirs, embed tokens and
// sessions a day past theirs. Run hourly by the server; none of them would be accepted
// anyway, so this only keeps the tables small.

import type { Db } from '../platform/db/db.js';
import { purgeExpired } from '../modules/identity/service.js';
import { purgeInvitations } from '../modules/owners/service.js';
import { purgeEmbeds } from './embed.js';

export async function purgeExpiredAccess(db: Db, now: number): Promise<number> {
  return (await purgeExpired(db, now)) + (await purgeInvitations(db, now)) + (await purgeEmbeds(db, now));
}
