// What each kind of e-mail in the outbox says, made when it is sent (modules/mail/outbox.ts):
// a partner's password reset or portal invitation, an owner's password reset. Each makes
// its link in the sending transaction, so the link exists only once the mail goes.

import type { Message } from '../../platform/mail.js';
import { type Credentials, PARTNERS } from '../identity/repo.js';
import type { MailKind } from './repo.js';
import { resetLinkFor } from '../identity/service.js';
import { linkPath, ownerReset } from '../owners/service.js';
import { invitePartner, partnerLinkPath } from '../portal/service.js';
import type { Compose } from './outbox.js';

const resetText = (link: string, what: string): string =>
  `Someone asked to set a new password for your ${what}. If it was you, choose it here (the link works once, for 24 hours):\n${link}\n\nIf it was not you, ignore this message.\n`;

const resetMessage = (made: { account: Credentials }, link: string, where: string, what: string): Message => ({
  to: made.account.email ?? '',
  subject: `Set a new password for ${where}`,
  text: resetText(link, what),
});

export function composers(publicUrl: string): Record<MailKind, Compose> {
  return {
    async partner_reset(tx, row, now) {
      const made = await resetLinkFor(tx, PARTNERS, row.subject_key, now);
      return made && resetMessage(made, publicUrl + partnerLinkPath(made.token), 'the partner portal', 'partner account');
    },
    async owner_reset(tx, row, now) {
      const made = await ownerReset(tx, row.subject_key, now);
      return made && resetMessage(made, publicUrl + linkPath(made.token), 'the dashboard', 'Tally account');
    },
    async partner_invitation(tx, row, now): Promise<Message | undefined> {
      const made = await invitePartner(tx, row.program_id ?? '', row.subject_key, now).catch(() => undefined);
      return (
        made && {
          to: made.email,
          subject: 'Your partner portal',
          text: `You are invited to the partner portal, where you find your referral link and what you earned.\n\nChoose your password here (the link works once, for 24 hours):\n${publicUrl + partnerLinkPath(made.token)}\n`,
        }
      );
    },
  };
}
