// Die Wörter der Nachrichtenseiten auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Nachrichten',
  none: 'Noch keine Nachrichten',
  noneText: 'Schreiben Sie einem Partner von seiner Seite aus, oder senden Sie unten eine Rundnachricht.',
  unread_one: '{{count}} ungelesen',
  unread_other: '{{count}} ungelesen',
  broadcast: 'Rundnachricht',
  to: 'An',
  everyone: 'Alle angenommenen Partner',
  messageIn: {
    en: 'Nachricht auf Englisch',
    de: 'Nachricht auf Deutsch',
    fr: 'Nachricht auf Französisch',
    es: 'Nachricht auf Spanisch',
  },
  optional: '(optional)',
  languageHint: 'Jeder Partner erhält seine Sprache, sonst die des Programms, sonst die zuerst geschriebene.',
  sendAt: 'Senden am (leer: jetzt)',
  send: 'Rundnachricht senden',
  sent_one: 'Am {{date}} an {{count}} Partner gesendet',
  sent_other: 'Am {{date}} an {{count}} Partner gesendet',
  scheduled: 'Geplant für {{date}}',
  partnerPage: 'Seite des Partners',
  team: 'Team',
  partner: 'Partner',
  threadEmpty: 'Noch keine Nachrichten.',
  reply: 'Nachricht',
  sendReply: 'Senden',
};

export default de;
