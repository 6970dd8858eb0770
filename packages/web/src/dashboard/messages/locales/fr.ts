// Les mots des pages de messages en français (la forme est celle de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Messages',
  none: 'Pas encore de messages',
  noneText: 'Écrivez à un partenaire depuis sa page, ou envoyez un message groupé ci-dessous.',
  unread_one: '{{count}} non lu',
  unread_many: '{{count}} de non lus',
  unread_other: '{{count}} non lus',
  broadcast: 'Message groupé',
  to: 'À',
  everyone: 'Tous les partenaires acceptés',
  messageIn: {
    en: 'Message en anglais',
    de: 'Message en allemand',
    fr: 'Message en français',
    es: 'Message en espagnol',
  },
  optional: '(facultatif)',
  languageHint: 'Chaque partenaire reçoit sa langue, sinon celle du programme, sinon la première rédigée.',
  sendAt: 'Envoyer le (vide : maintenant)',
  send: 'Envoyer le message groupé',
  sent_one: 'Envoyé le {{date}} à {{count}} partenaire',
  sent_many: 'Envoyé le {{date}} à {{count}} de partenaires',
  sent_other: 'Envoyé le {{date}} à {{count}} partenaires',
  scheduled: 'Prévu le {{date}}',
  partnerPage: 'Page du partenaire',
  team: 'Équipe',
  partner: 'Partenaire',
  threadEmpty: 'Pas encore de messages.',
  reply: 'Message',
  sendReply: 'Envoyer',
};

export default fr;
