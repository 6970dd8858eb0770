// What each kind of e-mail in the outbox says, made when it is sent (modules/mail/outbox.ts):
// a partner's password reset or portal invitation, an owner's password reset, and a team
// invitation's link sent to the address (owners/service.ts, mailedInvitation). Each makes
// its link in the sending transaction, so the link exists only once the mail goes. They
// are the notifications' letters (MJML, both parts) in the partner's language, from the
// same catalogues (modules/notifications/locales/); owners get English, as the dashboard.

import type { TFunction } from 'i18next';
import type { Locale } from '../../core/locale.js';
import { localeOf } from '../../core/locale.js';
import type { Message } from '../../platform/mail.js';
import { PARTNERS } from '../identity/repo.js';
import { resetLinkFor } from '../identity/service.js';
import { translate } from '../notifications/i18n.js';
import { html, plainText, type Letter } from '../notifications/template.js';
import { linkPath, mailedInvitation, ownerReset } from '../owners/service.js';
import { accountLocale, invitePartner, partnerLinkPath } from '../portal/service.js';
import * as programs from '../programs/repo.js';
import type { Compose } from './outbox.js';
import type { MailKind } from './repo.js';

/** A letter with one button, the link, and no unsubscribe: it answers a request or an invitation. */
async function letter(to: string, locale: Locale, parts: Omit<Letter, 'lang' | 'unsubscribe'>): Promise<Message> {
  const made: Letter = { ...parts, lang: locale };
  return { to, subject: made.subject, text: plainText(made), html: await html(made) };
}

const reset = (to: string, locale: Locale, t: TFunction, who: 'partner' | 'owner', url: string): Promise<Message> =>
  letter(to, locale, {
    program: who === 'partner' ? t('reset.portal') : 'Tally',
    subject: who === 'partner' ? t('reset.partner_subject') : t('reset.owner_subject'),
    paragraphs: [who === 'partner' ? t('reset.partner_body') : t('reset.owner_body')],
    button: { label: t('reset.button'), url },
    footer: t('reset.why'),
  });

export function composers(publicUrl: string): Record<MailKind, Compose> {
  return {
    async partner_reset(tx, row, now) {
      const made = await resetLinkFor(tx, PARTNERS, row.subject_key, now);
      if (!made) return undefined;
      const locale = await accountLocale(tx, made.account.id);
      return reset(made.account.email ?? '', locale, translate(locale), 'partner', publicUrl + partnerLinkPath(made.token));
    },
    async owner_reset(tx, row, now) {
      const made = await ownerReset(tx, row.subject_key, now);
      return made && reset(made.account.email ?? '', 'en', translate('en'), 'owner', publicUrl + linkPath(made.token));
    },
    async owner_invitation(tx, row, now): Promise<Message | undefined> {
      const made = await mailedInvitation(tx, row.subject_key, now);
      const program = made && (await programs.get(tx, made.invitation.program_id));
      if (!made || !program) return undefined;
      const t = translate('en');
      const v = { program: program.name };
      return letter(made.invitation.email, 'en', {
        program: program.name,
        subject: t('team_invitation.subject', v),
        paragraphs: [t('team_invitation.body', v)],
        button: { label: t('team_invitation.button'), url: publicUrl + linkPath(made.link) },
        footer: t('team_invitation.why', v),
      });
    },
    async partner_invitation(tx, row, now): Promise<Message | undefined> {
      const made = await invitePartner(tx, row.program_id ?? '', row.subject_key, now, 'mailed').catch(() => undefined);
      const program = made && (await programs.get(tx, made.partner.program_id));
      if (!made || !program) return undefined;
      const locale = localeOf(made.partner.locale) ?? localeOf(program.locale) ?? 'en';
      const t = translate(locale);
      const v = { program: program.name };
      return letter(made.email, locale, {
        program: program.name,
        subject: t('invitation.subject', v),
        paragraphs: [t('invitation.body', v)],
        button: { label: t('invitation.button'), url: publicUrl + partnerLinkPath(made.token) },
        footer: t('invitation.why', v),
      });
    },
  };
}
