// Les récompenses d'un groupe en français (en.ts donne la forme).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  what: {
    lead: '{{amount}} par inscription',
    click: '{{amount}} par visiteur unique',
    clickCapped: '{{amount}} par visiteur unique, au plus {{cap}} par jour',
    percentage: '{{percent}} % de {{payments}}',
    sale: '{{amount}} par vente',
    flatMonths_one: '{{amount}} par paiement pendant {{count}} mois',
    flatMonths_many: '{{amount}} par paiement pendant {{count}} de mois',
    flatMonths_other: '{{amount}} par paiement pendant {{count}} mois',
    flatLifetime: '{{amount}} par paiement, tant que le client reste',
    ownRate: '{{percent}} % de chaque paiement (votre propre taux)',
  },
  payments: {
    once: 'le premier paiement',
    months_one: 'chaque paiement pendant {{count}} mois',
    months_many: 'chaque paiement pendant {{count}} de mois',
    months_other: 'chaque paiement pendant {{count}} mois',
    lifetime: 'chaque paiement, tant que le client reste',
  },
  when: '{{what}}, si {{conditions}}',
  and: 'et',
  or: 'ou',
  firstPayment: "c'est le premier paiement",
  renewal: "c'est un renouvellement",
  subject: {
    product_id: 'le produit',
    price_id: 'le prix',
    amount: 'le montant',
    currency: 'la devise',
    months_since_first_payment: 'le nombre de mois depuis le premier paiement',
    customer_country: 'le pays du client',
    metadata: 'la clé de métadonnées {{key}}',
    partner_customers: 'le nombre de clients payants du partenaire {{over}}',
    partner_revenue: "le chiffre d'affaires du partenaire {{over}}",
  },
  over: {
    toDate: "jusqu'à ce jour",
    lastDays_one: 'sur le dernier jour',
    lastDays_many: 'sur les {{count}} derniers jours',
    lastDays_other: 'sur les {{count}} derniers jours',
  },
  op: {
    eq: '{{subject}} est {{values}}',
    neq: "{{subject}} n'est pas {{values}}",
    not_in: "{{subject}} n'est aucun de {{values}}",
    gt: '{{subject}} dépasse {{values}}',
    gte: '{{subject}} est au moins {{values}}',
    lt: '{{subject}} est inférieur à {{values}}',
    lte: '{{subject}} est au plus {{values}}',
  },
};

export default fr;
