// Les mots des e-mails en français.

import type { Catalogue } from '../catalogue.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  common: {
    open_portal: 'Ouvrir votre espace partenaire',
    open_dashboard: 'Ouvrir le tableau de bord',
    why_partner: 'Vous recevez cet e-mail en tant que partenaire de {{program}}.',
    why_owner: 'Vous recevez cet e-mail en tant que responsable de {{program}} sur Tally.',
    unsubscribe: 'Ne plus recevoir ces e-mails ({{kind}})',
  },
  kinds: {
    application_received: 'candidature reçue',
    application_approved: 'candidature acceptée',
    application_declined: 'candidature refusée',
    first_referral: 'premier parrainage',
    commission_digest: 'commissions du jour',
    payout_sent: 'paiement envoyé',
    clawback: 'reprises de commission',
    code_created: 'nouveaux codes',
    message_waiting: 'messages de l’équipe',
    new_recruit: 'nouveaux filleuls',
    link_approved: 'liens approuvés',
    link_waiting: 'liens en attente d’approbation',
    new_application: 'nouvelles candidatures',
    webhook_failing: 'webhook en échec',
    billing_failing: 'facturation en échec',
    review_waiting: 'retenu pour vérification',
    weekly_summary: 'résumé de la semaine',
    payout_run_waiting: 'virement groupé en attente d’approbation',
    partner_message: 'messages des partenaires',
    bounty_awarded: 'primes obtenues',
    submission_approved: 'soumissions acceptées',
    submission_rejected: 'soumissions refusées',
    new_submission: 'nouvelles soumissions de primes',
    lead_stage: 'étapes des leads',
    new_lead: 'nouveaux leads',
  },
  application_received: {
    subject: '{{program}} a bien reçu votre candidature',
    body: 'Bonjour {{name}}, merci pour votre candidature au programme partenaire de {{program}}. Nous vous écrirons dès qu’elle aura été examinée.',
  },
  application_approved: {
    subject: 'Bienvenue dans le programme partenaire de {{program}}',
    body: 'Bonjour {{name}}, votre candidature à {{program}} a été acceptée. Votre lien de parrainage est {{link}} : partagez-le, et chaque client qu’il amène vous rapporte une commission.',
  },
  application_declined: {
    subject: 'Votre candidature à {{program}}',
    body: 'Bonjour {{name}}, votre candidature au programme partenaire de {{program}} a été refusée.',
    reason: 'Le motif indiqué : {{reason}}',
  },
  first_referral: {
    subject: 'Votre premier parrainage pour {{program}}',
    body: 'Félicitations {{name}} : une personne que vous avez recommandée vient de s’inscrire chez {{program}}. Votre lien fonctionne !',
  },
  commission_digest: {
    subject_one: 'Vous avez gagné {{total}} avec {{program}} aujourd’hui',
    subject_other: 'Vous avez gagné {{total}} avec {{program}} aujourd’hui ({{count}} commissions)',
    subject_many: 'Vous avez gagné {{total}} avec {{program}} aujourd’hui ({{count}} de commissions)',
    body_one: 'Bonjour {{name}}, le {{day}}, vous avez gagné une commission avec {{program}} : {{total}}.',
    body_other: 'Bonjour {{name}}, le {{day}}, vous avez gagné {{count}} commissions avec {{program}}, {{total}} au total.',
    body_many: 'Bonjour {{name}}, le {{day}}, vous avez gagné {{count}} de commissions avec {{program}}, {{total}} au total.',
  },
  payout_sent: {
    subject: '{{program}} vous a versé {{amount}}',
    body: 'Bonjour {{name}}, {{program}} vous a versé {{amount}} pour {{count}} commissions, sur votre adresse PayPal.',
  },
  clawback: {
    subject: 'Une commission de {{program}} a été reprise',
    body: 'Bonjour {{name}}, un paiement a été remboursé : {{amount}} gagnés avec {{program}} ont été retirés de votre solde.',
  },
  code_created: {
    subject: 'Votre nouveau code pour {{program}} : {{code}}',
    body: 'Bonjour {{name}}, vous avez un nouveau code promo pour {{program}} : {{code}}. Un client qui le saisit au paiement vous est attribué, même sans votre lien.',
  },
  message_waiting: {
    subject: '{{program}} vous a envoyé un message',
    body: 'Bonjour {{name}}, l’équipe de {{program}} vous a écrit :',
    answer: 'Lisez-le et répondez dans votre portail.',
  },
  partner_message: {
    subject: '{{name}} a envoyé un message à {{program}}',
    body: '{{name}} ({{email}}) a écrit :',
  },
  lead_stage: {
    subject: 'Votre lead {{lead}} chez {{program}}',
    qualified: 'Bonjour {{name}}, {{program}} a qualifié votre lead {{lead}} et le suit.',
    won: 'Bonjour {{name}}, {{program}} a gagné votre lead {{lead}} : c’est désormais votre filleul, et ses paiements vous rapportent des commissions.',
    lost: 'Bonjour {{name}}, {{program}} a clos votre lead {{lead}} comme perdu.',
    reason: 'La raison donnée : {{reason}}',
  },
  new_lead: {
    subject: '{{partner}} a soumis un lead à {{program}}',
    body: '{{partner}} a soumis {{name}} ({{email}}, entreprise : {{company}}) comme lead de {{program}}. Qualifiez-le, puis marquez-le gagné ou perdu.',
  },
  new_recruit: {
    subject: '{{recruit}} a rejoint {{program}} grâce à votre lien',
    body: 'Bonjour {{name}}, {{recruit}} a postulé au programme partenaire de {{program}} avec votre lien de parrainage. Vous touchez désormais une part de ses commissions : voir Filleuls dans votre portail.',
  },
  link_approved: {
    subject: 'Votre lien {{key}} pour {{program}} est approuvé',
    body: 'Bonjour {{name}}, {{program}} a approuvé votre lien avec la clé {{key}} : chaque visite par ce lien vous est désormais attribuée.',
  },
  link_waiting: {
    subject: '{{name}} a choisi la clé de lien {{key}} pour {{program}}',
    body: '{{name}} ({{email}}) a créé un lien avec la clé {{key}}, qui attend votre approbation sur sa page.',
  },
  new_application: {
    subject: '{{name}} a posé sa candidature à {{program}}',
    body: '{{name}} ({{email}}) souhaite devenir partenaire de {{program}}.',
    note: 'Son message : {{note}}',
  },
  webhook_failing: {
    subject: 'Un webhook de {{program}} est en échec',
    body: 'Les envois vers {{url}} échouent depuis le {{since}}.',
    disabled: 'Tally a désactivé ce point de terminaison : {{reason}}. Réactivez-le dès qu’il répond.',
  },
  billing_failing: {
    subject: '{{program}} : des événements de facturation n’ont pas pu être traités',
    body_one: 'Un événement de {{platform}} n’a pas pu être traité ces dernières 24 heures : {{reason}}.',
    body_other: '{{count}} événements de {{platform}} n’ont pas pu être traités ces dernières 24 heures ; le dernier : {{reason}}.',
    body_many: '{{count}} d’événements de {{platform}} n’ont pas pu être traités ces dernières 24 heures ; le dernier : {{reason}}.',
  },
  review_waiting: {
    subject: '{{program}} : des montants attendent votre vérification',
    body_one: 'Un parrainage ou une commission de {{program}} est retenu pour vérification et attend votre décision.',
    body_other: '{{count}} parrainages et commissions de {{program}} sont retenus pour vérification et attendent votre décision.',
    body_many: '{{count}} de parrainages et commissions de {{program}} sont retenus pour vérification et attendent votre décision.',
  },
  payout_run_waiting: {
    subject: '{{program}} : un virement groupé planifié attend votre approbation',
    body_one:
      'Le calendrier a préparé un virement groupé de {{program}} pour la période commençant le {{period}} : un paiement à un partenaire, {{total}}. Il n’est payé qu’une fois qu’un propriétaire l’a approuvé et envoyé.',
    body_other:
      'Le calendrier a préparé un virement groupé de {{program}} pour la période commençant le {{period}} : {{count}} paiements à des partenaires, {{total}} au total. Il n’est payé qu’une fois qu’un propriétaire l’a approuvé et envoyé.',
    body_many:
      'Le calendrier a préparé un virement groupé de {{program}} pour la période commençant le {{period}} : {{count}} de paiements à des partenaires, {{total}} au total. Il n’est payé qu’une fois qu’un propriétaire l’a approuvé et envoyé.',
  },
  weekly_summary: {
    subject: '{{program}} : votre semaine du {{from}} au {{to}}',
    intro: 'La semaine de {{program}} du {{from}} au {{to}}, comparée à la semaine précédente :',
    line: '{{label}} : {{value}} (semaine précédente : {{before}})',
    clicks: 'Clics',
    referrals: 'Parrainages',
    customers: 'Clients payants',
    revenue: 'Chiffre d’affaires',
    commissions: 'Commissions',
  },
  bounty_awarded: {
    subject: 'Vous avez obtenu la prime {{bounty}} de {{program}}',
    body: 'Félicitations {{name}} : vous avez atteint l’objectif de la prime {{bounty}}, et {{program}} a ajouté {{amount}} à vos commissions.',
  },
  submission_approved: {
    subject: '{{program}} a accepté votre soumission pour {{bounty}}',
    body: 'Bonjour {{name}}, {{program}} a accepté ce que vous avez soumis pour la prime {{bounty}} : {{amount}} a été ajouté à vos commissions.',
  },
  submission_rejected: {
    subject: 'Votre soumission pour {{bounty}} de {{program}}',
    body: 'Bonjour {{name}}, {{program}} n’a pas accepté ce que vous avez soumis pour la prime {{bounty}}. La raison donnée : {{reason}}',
  },
  new_submission: {
    subject: '{{program}} : une soumission de prime à examiner',
    body: 'Un partenaire de {{program}} a soumis une preuve pour une prime ; elle attend votre accord.',
  },
  invitation: {
    subject: 'Votre espace partenaire chez {{program}}',
    body: '{{program}} vous invite dans son espace partenaire, où vous trouvez votre lien de parrainage et ce que vous avez gagné.',
    button: 'Choisir mon mot de passe',
    why: 'Vous recevez cet e-mail parce que {{program}} a invité cette adresse dans son espace partenaire. Le lien fonctionne une fois, pendant 24 heures.',
  },
  payout_confirmation: {
    subject: 'Confirmez votre adresse PayPal pour {{program}}',
    body: 'Confirmez que {{program}} peut vous payer à cette adresse PayPal : {{email}}.',
    button: 'Confirmer cette adresse',
    why: 'Vous recevez cet e-mail parce qu’un partenaire de {{program}} a choisi cette adresse pour ses paiements. Le lien fonctionne 24 heures ; si ce n’était pas vous, ignorez ce message.',
  },
  security: {
    subject: 'Avis de sécurité : {{what}}',
    body: "Ceci vient d'arriver sur votre compte ({{email}}) : {{what}}.",
    if_not_you:
      "Si ce n'était pas vous, changez tout de suite votre mot de passe et vérifiez vos méthodes de connexion, puis prévenez le programme.",
    button: 'Vérifier mes méthodes de connexion',
    why: "Vous recevez cet e-mail chaque fois que la sécurité de votre compte change ou que de l'argent est engagé en votre nom ; il ne peut pas être désactivé.",
    events: {
      totp_enabled: "une application d'authentification a été ajoutée comme second facteur",
      passkey_added: "une clé d'accès a été ajoutée",
      factor_disabled: 'un second facteur a été retiré',
      recovery_code_used: 'un code de récupération a été utilisé',
      recovery_codes_renewed: 'de nouveaux codes de récupération ont été créés ; les anciens ne fonctionnent plus',
      payout_method_changed: 'le mode de paiement a été modifié',
      payout_run_approved: 'une série de paiements a été approuvée',
      secret_token_created: "un jeton d'API secret a été créé",
      team_changed: "l'équipe du programme ou ses règles de connexion ont été modifiées",
    },
  },
  reset: {
    portal: 'Espace partenaire',
    partner_subject: 'Choisissez un nouveau mot de passe pour votre espace partenaire',
    owner_subject: 'Choisissez un nouveau mot de passe pour le tableau de bord',
    partner_body:
      'Quelqu’un a demandé un nouveau mot de passe pour votre compte partenaire. Si c’était vous, choisissez-le avec le lien ci-dessous.',
    owner_body:
      'Quelqu’un a demandé un nouveau mot de passe pour votre compte Tally. Si c’était vous, choisissez-le avec le lien ci-dessous.',
    button: 'Choisir un nouveau mot de passe',
    why: 'Le lien fonctionne une fois, pendant 24 heures. Si ce n’était pas vous, ignorez ce message : votre mot de passe ne change pas.',
  },
  team_invitation: {
    subject: 'Confirmez votre invitation à {{program}}',
    body: 'Vous êtes invité à gérer {{program}} sur Tally. Cette adresse est aussi invitée à un autre programme ici, son mot de passe se choisit donc seulement avec un lien qui lui est envoyé : celui-ci.',
    button: 'Choisir mon mot de passe et accepter',
    why: 'Vous recevez cet e-mail parce que l’invitation de cette adresse à {{program}} a été utilisée. Le lien fonctionne une fois, jusqu’à l’expiration de l’invitation ; si vous n’en attendiez pas, ignorez ce message.',
  },
};

export default fr;
