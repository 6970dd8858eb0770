// Les choix d’e-mails du portail en français (en.ts en donne la forme).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'E-mails',
  intro:
    'Les e-mails que vous envoient les programmes que vous avez rejoints, pour tous à la fois. Chaque e-mail contient aussi un lien qui désactive ce type de message.',
  legend: 'M’envoyer un e-mail quand',
  save: 'Enregistrer mes choix d’e-mails',
  unsaved: 'Pas encore enregistré.',
  kinds: {
    application_received: { title: 'Votre candidature arrive', text: 'Un programme a reçu votre candidature.' },
    application_approved: { title: 'Vous êtes accepté', text: 'Un programme vous a accepté ; l’e-mail contient votre lien de parrainage.' },
    application_declined: {
      title: 'Votre candidature est refusée',
      text: 'Un programme a refusé votre candidature, avec sa raison s’il en a donné une.',
    },
    first_referral: {
      title: 'Votre premier filleul s’inscrit',
      text: 'La première personne que vous avez recommandée à un programme s’est inscrite.',
    },
    commission_digest: {
      title: 'Vous gagnez des commissions',
      text: 'Un e-mail par jour au plus, avec les commissions du jour et leur total.',
    },
    payout_sent: { title: 'Vous êtes payé', text: 'Un programme vous a envoyé un paiement ; l’e-mail en indique le montant.' },
    clawback: { title: 'Une commission est reprise', text: 'Une commission payée a été annulée, après un remboursement par exemple.' },
    code_created: { title: 'Vous recevez un code promo', text: 'Un programme a créé un code promo pour vous.' },
    message_waiting: {
      title: 'L’équipe vous écrit',
      text: 'L’équipe d’un programme vous a envoyé un message non lu depuis dix minutes ; un e-mail par série.',
    },
    bounty_awarded: {
      title: 'Vous obtenez une prime',
      text: 'Vous avez atteint l’objectif d’une prime de performance ; l’e-mail indique le montant.',
    },
    submission_approved: {
      title: 'Votre soumission de prime est acceptée',
      text: 'Un programme a accepté ce que vous avez soumis pour une prime.',
    },
    submission_rejected: {
      title: 'Votre soumission de prime est refusée',
      text: 'Un programme a refusé ce que vous avez soumis pour une prime, avec sa raison.',
    },
    lead_stage: { title: 'Un de vos leads avance', text: 'Un programme a qualifié, gagné ou perdu un lead que vous avez soumis.' },
    new_recruit: {
      title: 'Un partenaire vous rejoint par votre lien de parrainage',
      text: 'Quelqu’un a postulé avec votre lien, et vous touchez une part de ses commissions.',
    },
    link_approved: { title: 'Votre lien est approuvé', text: 'Un programme a approuvé une clé de lien que vous avez choisie.' },
  },
};

export default fr;
