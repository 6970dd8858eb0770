// La page des messages du portail en français.

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Messages',
  intro: 'Vos messages avec l’équipe de {{program}}. Elle reçoit un e-mail quand vous écrivez.',
  mine: 'Vous',
  empty: 'Aucun message pour l’instant. Écrivez à l’équipe ci-dessous.',
  reply: 'Votre message',
  send: 'Envoyer',
};

export default fr;
