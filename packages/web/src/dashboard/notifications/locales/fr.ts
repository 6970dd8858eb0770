// Les mots des préférences d’e-mail en français (la forme est celle de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Notifications par e-mail',
  text: 'Les e-mails que Tally vous envoie, {{email}}, pour chaque programme que vous possédez ou administrez. Chaque message contient aussi un lien qui désactive son type. Les partenaires choisissent les leurs dans le portail.',
  viewer: 'Les lecteurs ne reçoivent aucun de ces e-mails ; passez à un programme que vous possédez ou administrez pour les modifier.',
  legend: 'M’envoyer un e-mail quand',
  unsaved: 'Pas encore enregistré.',
  save: 'Enregistrer',
  kinds: {
    link_waiting: {
      title: 'un partenaire choisit une clé de lien',
      text: 'Une clé choisie par un partenaire attend votre approbation sur la page du partenaire.',
    },
    new_application: {
      title: 'un partenaire pose sa candidature',
      text: 'Quelqu’un a posé sa candidature sur votre page publique et attend que vous l’acceptiez.',
    },
    webhook_failing: {
      title: 'un endpoint de webhook échoue',
      text: 'Les envois vers l’un de vos endpoints échouent depuis une heure, ou Tally l’a désactivé.',
    },
    billing_failing: {
      title: 'des événements de facturation échouent',
      text: 'Des événements de votre plateforme de facturation n’ont pas pu être appliqués. Au plus un e-mail par jour.',
    },
    review_waiting: {
      title: 'de l’argent est retenu pour vérification',
      text: 'Des parrainages ou des commissions ont été retenus et attendent votre décision. Au plus un e-mail par jour.',
    },
    payout_run_waiting: {
      title: 'un versement planifié attend',
      text: 'Le calendrier de versements a créé un versement qui attend l’approbation d’un propriétaire. Au plus un e-mail par versement.',
    },
    partner_message: {
      title: 'un partenaire vous écrit',
      text: 'Un partenaire a envoyé un message que l’équipe n’a pas lu depuis dix minutes. Un e-mail par salve de messages.',
    },
    new_submission: {
      title: 'un partenaire participe à une prime',
      text: 'Un partenaire a envoyé une preuve pour une prime sur soumission ; elle attend votre approbation.',
    },
    new_lead: {
      title: 'un partenaire soumet un lead',
      text: 'Un partenaire a soumis une personne qui pourrait devenir cliente, pour que vous la qualifiiez, la gagniez ou la perdiez.',
    },
    weekly_summary: {
      title: 'le récapitulatif de la semaine est prêt',
      text: 'Chaque lundi : les clics, parrainages, clients, chiffre d’affaires et commissions de la semaine passée, comparés à la semaine précédente.',
    },
  },
};

export default fr;
