// What each kind of e-mail in the outbox says, made when it is sent (modules/mail/outbox.ts):
// a partner's password reset or portal invitation, an owner's password reset, and a team
// invitation's link sent to the address (owners/service.ts, mailedInvitation). Each makes
// its link in the sending transaction, so the link exists only once the mail goes. They
// are the notifications' letters (MJML, both parts) in the partner's language, from the
// same catalogues (modules/notifications/locales/); owners get English, as the dashboard.

import { localeOf } from '../core/locale.js';
import { OWNERS, PARTNERS } from '../modules/identity/model.js';
import { credentialsById } from '../modules/identity/repo.js';
import { resetLinkFor } from '../modules/identity/service.js';
import { invitationLetter, payoutConfirmationLetter, resetLetter, securityLetter } from '../modules/notifications/account-letters.js';
import { confirmationFor } from '../modules/payout-methods/service.js';
import * as partners from '../modules/partners/repo.js';
import { linkPath, mailedInvitation, ownerReset } from '../modules/owners/service.js';
import { accountLocale, invitePartner, partnerLinkPath } from './portal.js';
import * as programs from '../modules/programs/repo.js';
import { type Compose, securityNoticeOf } from '../modules/mail/outbox.js';
import type { MailKind } from '../modules/mail/repo.js';

/** The portal's page that confirms a PayPal address with the token after `#` (never sent to a server in a URL). */
export const PAYOUT_CONFIRM_PATH = '/portal/payout-confirm';

/** Where each app lists a person's sign-in methods: a security notice links there. */
export const DASHBOARD_SECURITY_PATH = '/dashboard/settings/security';
export const PORTAL_SECURITY_PATH = '/portal/settings/security';

export function composers(publicUrl: string): Record<MailKind, Compose> {
  return {
    async partner_reset(tx, row, now) {
      const made = await resetLinkFor(tx, PARTNERS, row.subject_key, now);
      if (!made) return undefined;
      const locale = await accountLocale(tx, made.account.id);
      return resetLetter(made.account.email ?? '', 'partner', locale, publicUrl + partnerLinkPath(made.token));
    },
    async owner_reset(tx, row, now) {
      const made = await ownerReset(tx, row.subject_key, now);
      return made && resetLetter(made.account.email ?? '', 'owner', 'en', publicUrl + linkPath(made.token));
    },
    async owner_invitation(tx, row, now) {
      const made = await mailedInvitation(tx, row.subject_key, now);
      const program = made && (await programs.get(tx, made.invitation.program_id));
      if (!made || !program) return undefined;
      return invitationLetter(made.invitation.email, 'team', 'en', program.name, publicUrl + linkPath(made.link));
    },
    async partner_invitation(tx, row, now) {
      const made = await invitePartner(tx, row.program_id ?? '', row.subject_key, now, 'mailed').catch(() => undefined);
      const program = made && (await programs.get(tx, made.partner.program_id));
      if (!made || !program) return undefined;
      const locale = localeOf(made.partner.locale) ?? localeOf(program.locale) ?? 'en';
      const letter = await invitationLetter(made.email, 'partner', locale, program.name, publicUrl + partnerLinkPath(made.token));
      return { ...letter, fromName: program.name };
    },
    async security_notice(tx, row) {
      const notice = securityNoticeOf(row.subject_key);
      const realm = notice.realm === 'partner' ? PARTNERS : OWNERS;
      const account = await credentialsById(tx, realm, notice.account);
      if (!account?.email) return undefined;
      const locale = realm === PARTNERS ? await accountLocale(tx, account.id) : 'en';
      const page = realm === PARTNERS ? PORTAL_SECURITY_PATH : DASHBOARD_SECURITY_PATH;
      return securityLetter(account.email, notice.realm, locale, notice.event, publicUrl + page);
    },
    async payout_confirmation(tx, row, now) {
      const made = await confirmationFor(tx, row.subject_key, now);
      const program = made && (await programs.get(tx, made.programId));
      const partner = made && (await partners.get(tx, made.programId, made.partnerId));
      if (!made || !program || !partner) return undefined;
      const locale = localeOf(partner.locale) ?? localeOf(program.locale) ?? 'en';
      const letter = await payoutConfirmationLetter(made.email, locale, program.name, `${publicUrl}${PAYOUT_CONFIRM_PATH}#${made.token}`);
      return { ...letter, fromName: program.name };
    },
  };
}
