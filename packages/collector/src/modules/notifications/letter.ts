// A draft (compose.ts) as the e-mail's subject and two parts: the button to the portal or
// the dashboard, why the person gets it, and the link that stops this kind.

import type { Locale } from '../../core/locale.js';
import type { ProgramRow } from '../programs/model.js';
import type { TFunction } from 'i18next';
import type { NotificationKind } from './kinds.js';
import { html, plainText, type Letter } from './template.js';

export interface Draft {
  to: string;
  /** The partner's id, the owner's user id: whose preferences the message answers to. */
  personId: string;
  locale: Locale;
  program: ProgramRow;
  subject: string;
  paragraphs: string[];
  /** Under PUBLIC_URL: the portal's or the dashboard's page that shows more. */
  path: string;
}

/** Each kind's name in the recipient's language, for the unsubscribe line and the preferences: `kinds.<kind>` in the catalogues (their test checks every kind has one). */
export function kindLabel(t: TFunction, kind: NotificationKind): string {
  return t(`kinds.${kind}`);
}

export async function letterFor(draft: Draft, kind: NotificationKind, publicUrl: string, unsubscribeUrl: string, t: TFunction) {
  const partner = draft.path.startsWith('/portal');
  const program = draft.program.name;
  const letter: Letter = {
    program,
    lang: draft.locale,
    subject: draft.subject,
    paragraphs: draft.paragraphs,
    button: { label: partner ? t('common.open_portal') : t('common.open_dashboard'), url: publicUrl + draft.path },
    footer: partner ? t('common.why_partner', { program }) : t('common.why_owner', { program }),
    unsubscribe: { label: t('common.unsubscribe', { kind: kindLabel(t, kind) }), url: unsubscribeUrl },
  };
  return { subject: letter.subject, text: plainText(letter), html: await html(letter) };
}
