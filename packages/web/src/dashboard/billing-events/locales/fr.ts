// Les mots de la page des événements de facturation en français (la forme est celle de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Événements de facturation',
  waitingFor: 'en attente de {{what}}',
  records: { title: 'Enregistrements', referral: 'parrainage', payment: 'paiement', commission: 'commission' },
  again: 'Traiter à nouveau',
  againLabel: 'Traiter à nouveau : {{name}}',
  againTitle: 'Traiter à nouveau {{name}} ?',
  againText:
    'Tally le traite maintenant comme s’il venait d’arriver : il peut créditer, lier, rembourser, retenir ou libérer ce qu’il désigne.',
  outcomes: {
    credited: 'crédité',
    linked: 'lié',
    refunded: 'remboursé',
    held: 'retenu',
    released: 'libéré',
    churned: 'parti',
    ignored: 'ignoré',
    failed: 'échoué',
  },
  received: 'Reçu',
  platform: 'Plateforme',
  type: 'Type',
  outcome: 'Résultat',
  test: 'test',
  event: 'Événement',
  actions: 'Actions',
  all: 'Toutes',
  any: 'Tous',
  filter: 'Filtrer',
  noneOfPlatform: 'Aucun événement {{platform}} ne correspond à ces filtres',
  noneFiltered: 'Aucun événement de facturation ne correspond à ces filtres',
  showEvery: 'Afficher tous les événements',
  none: 'Pas encore d’événements de facturation',
  noneText:
    'Connectez Stripe, Paddle ou Lemon Squeezy dans les {{link}}, puis envoyez un événement de test depuis la plateforme : il apparaît ici avec ce qu’il a fait.',
  settings: 'paramètres',
};

export default fr;
