// The letters that answer a request or an invitation (a password reset, a portal or team
// invitation): the notifications' template and catalogues, one button, no unsubscribe.
// The mail outbox (modules/mail/messages.ts) makes their links and sends them.

import type { Locale } from '../../core/locale.js';
import type { Message } from '../../platform/mail.js';
import { translate } from './i18n.js';
import { html, type Letter, plainText } from './template.js';
import type { SecurityEvent } from '../identity/model.js';

async function letter(to: string, locale: Locale, parts: Omit<Letter, 'lang' | 'unsubscribe'>): Promise<Message> {
  const made: Letter = { ...parts, lang: locale };
  return { to, subject: made.subject, text: plainText(made), html: await html(made) };
}

/** A partner's reset in their account's language; an owner's in English, as the dashboard. */
export function resetLetter(to: string, who: 'partner' | 'owner', locale: Locale, url: string): Promise<Message> {
  const t = translate(who === 'owner' ? 'en' : locale);
  return letter(to, who === 'owner' ? 'en' : locale, {
    program: who === 'partner' ? t('reset.portal') : 'Tally',
    subject: who === 'partner' ? t('reset.partner_subject') : t('reset.owner_subject'),
    paragraphs: [who === 'partner' ? t('reset.partner_body') : t('reset.owner_body')],
    button: { label: t('reset.button'), url },
    footer: t('reset.why'),
  });
}

/** An invitation to a program's portal (`partner`) or its team (`team`, English as the dashboard). */
export function invitationLetter(to: string, kind: 'partner' | 'team', locale: Locale, program: string, url: string): Promise<Message> {
  const lang = kind === 'team' ? 'en' : locale;
  const t = translate(lang);
  const v = { program };
  const line = (part: 'subject' | 'body' | 'button' | 'why') =>
    kind === 'team' ? t(`team_invitation.${part}`, v) : t(`invitation.${part}`, v);
  return letter(to, lang, {
    program,
    subject: line('subject'),
    paragraphs: [line('body')],
    button: { label: line('button'), url },
    footer: line('why'),
  });
}

/** The link confirming a PayPal address a partner chose for their payouts, sent to that address. */
export function payoutConfirmationLetter(to: string, locale: Locale, program: string, url: string): Promise<Message> {
  const t = translate(locale);
  const v = { program, email: to };
  return letter(to, locale, {
    program,
    subject: t('payout_confirmation.subject', v),
    paragraphs: [t('payout_confirmation.body', v)],
    button: { label: t('payout_confirmation.button', v), url },
    footer: t('payout_confirmation.why', v),
  });
}

/**
 * What changed on an account's security, or which step-up action it took: told whoever
 * holds the address, since it may not be whoever holds the session.
 */
export function securityLetter(to: string, who: 'partner' | 'owner', locale: Locale, event: SecurityEvent, url: string): Promise<Message> {
  const lang = who === 'owner' ? 'en' : locale;
  const t = translate(lang);
  const what = t(`security.events.${event}`);
  return letter(to, lang, {
    program: who === 'partner' ? t('reset.portal') : 'Tally',
    subject: t('security.subject', { what }),
    paragraphs: [t('security.body', { what, email: to }), t('security.if_not_you')],
    button: { label: t('security.button'), url },
    footer: t('security.why'),
  });
}
