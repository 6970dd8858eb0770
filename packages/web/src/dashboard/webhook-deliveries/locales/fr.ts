// Les mots de la page des envois de webhooks en français (la forme est celle de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Envois de webhooks',
  time: 'Heure',
  status: 'Statut',
  duration: 'Durée',
  error: 'Erreur',
  answer: 'Réponse (premiers octets)',
  deliveryOf: 'Envoi de {{event}}',
  close: 'Fermer',
  state: 'État',
  states: { pending: 'en attente', succeeded: 'réussi', failed: 'échoué' },
  nextAttemptAt: '(prochaine tentative le {{date}})',
  event: 'Événement',
  created: 'Créé',
  attempts: 'Tentatives',
  notTried: 'Pas encore tenté : il part d’ici une ou deux secondes.',
  resend: 'Renvoyer',
  lastAnswer: 'Dernière réponse',
  nextAttempt: 'Prochaine tentative',
  actions: 'Actions',
  openLabel: 'Ouvrir l’envoi de {{event}}, {{date}}',
  open: 'Ouvrir',
  events: 'Événements',
  allEvents: 'tous les événements',
  enableInSettings: 'L’activer dans les paramètres',
  secret: 'Secret',
  settings: 'Paramètres',
  webhooks: 'Webhooks',
  refresh: 'Actualiser',
  testSent: 'Un événement de test est en route : il apparaît ci-dessous.',
  resent: 'Renvoyé, comme un nouvel envoi : il est ouvert ici.',
  any: 'Tous',
  noneIn: { pending: 'Aucun envoi en attente', succeeded: 'Aucun envoi réussi', failed: 'Aucun envoi échoué' },
  none: 'Pas encore d’envois',
  noneText:
    'Chaque événement que cet endpoint demande lui est envoyé ici, et chaque tentative est conservée. Envoyez un événement de test pour en voir arriver un.',
};

export default fr;
