// Les mots du portail intégré en français (en.ts en donne la forme).

import type { Catalogue } from '../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Votre lien de parrainage et vos gains',
  opening: 'Ouverture',
  expired: {
    title: 'Ce lien a expiré',
    text: 'Rechargez la page qui l’affiche pour revoir votre lien de parrainage et vos gains.',
  },
  link: {
    title: 'Votre lien de parrainage',
    copy: 'Copier le lien',
    anyPage: 'Ajouter ?red={{key}} à n’importe quelle page du site compte aussi.',
    pending: 'Votre partenariat avec {{program}} attend leur accord : votre lien apparaîtra ici dès qu’ils l’auront accepté.',
    declined: '{{program}} a refusé le partenariat : il n’y a pas de lien à partager.',
  },
  codes: {
    title: 'Vos codes promo',
    copy: 'Copier {{code}}',
    share: 'Un client qui saisit {{code}} au paiement vous est attribué, sans cliquer sur aucun lien.',
  },
  resources: {
    title: 'Ressources de marque',
    copy: 'Copier le texte',
    download: 'Télécharger ({{size}})',
  },
  figures: {
    title: 'Vos chiffres',
    clicks: 'Clics',
    referrals: 'Parrainages',
    customers: 'Clients payants',
    earned: 'Gagné',
  },
  money: {
    title: 'Vos gains',
    pending: 'En attente ({{currency}})',
    next: 'Prochain versement ({{currency}})',
    paid: 'Versé ({{currency}})',
    none: 'Rien de gagné pour l’instant : vos gains apparaîtront ici dès votre première commission.',
  },
  payout: {
    next: 'Versé avec le prochain paiement.',
    nothing: 'Rien n’est encore payable.',
    below_minimum: '{{payable}} sont payables ; les versements commencent à {{minimum}}.',
    clawbacks_exceed_earnings: 'Les remboursements ont repris autant que ce qui a été gagné : les prochains gains compensent d’abord.',
    no_paypal_email: '{{payable}} sont payables : choisissez ci-dessous comment être payé.',
    no_tax_form: '{{payable}} sont payables dès que vous fournissez un formulaire fiscal valide (W-9 ou W-8).',
    not_accepted: '{{payable}} seront payables quand le partenariat sera de nouveau accepté.',
    later: 'D’autres gains deviennent payables le {{date}}.',
  },
  stripe: {
    returnTitle: 'De retour de Stripe',
    returnText: 'Vous pouvez fermer cette fenêtre et revenir à la page d’où vous venez : elle montre ce que Stripe dit de votre compte.',
    refreshTitle: 'Ce lien Stripe a expiré',
    refreshText: 'Fermez cette fenêtre, revenez à la page d’où vous venez et appuyez de nouveau sur « Continuer vers Stripe ».',
  },
  messages: {
    title: 'Messages avec {{program}}',
    mine: 'Vous',
    empty: 'Aucun message pour l’instant. Écrivez à l’équipe ci-dessous.',
    reply: 'Votre message',
    send: 'Envoyer',
  },
  settings: {
    title: 'Paramètres',
    language: 'Langue',
    automatic: 'Automatique',
    save: 'Enregistrer',
  },
};

export default fr;
