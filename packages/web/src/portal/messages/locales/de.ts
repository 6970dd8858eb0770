// Die Nachrichtenseite des Portals auf Deutsch.

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Nachrichten',
  intro: 'Ihre Nachrichten mit dem Team von {{program}}. Es erhält eine E-Mail, wenn Sie schreiben.',
  mine: 'Sie',
  empty: 'Noch keine Nachrichten. Schreiben Sie dem Team unten.',
  reply: 'Ihre Nachricht',
  send: 'Senden',
};

export default de;
