// Les mots du tableau de bord en français (la forme est celle de en.ts).

import type { Catalogue } from '../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  app: {
    title: 'Tableau de bord Tally',
  },
  nav: {
    overview: 'Vue d’ensemble',
    partners: 'Partenaires',
    messages: 'Messages',
    groups: 'Groupes',
    bounties: 'Primes',
    referrals: 'Parrainages',
    leads: 'Leads',
    commissions: 'Commissions',
    review: 'Vérification',
    payments: 'Paiements',
    clicks: 'Clics',
    payouts: 'Versements',
    billingEvents: 'Événements de facturation',
    resources: 'Ressources',
    settings: 'Paramètres',
    auditLog: 'Journal d’audit',
    yourEmails: 'Vos e-mails',
  },
  shell: {
    skip: 'Aller au contenu',
    program: 'Programme',
    unread: 'non lus',
    language: 'Langue',
    browserLanguage: 'Langue de votre navigateur',
    menu: 'Menu',
    signOut: 'Se déconnecter',
    navigation: 'Tableau de bord',
    viewer: 'Vous êtes lecteur de ce programme : vous voyez tout et ne modifiez rien. Un propriétaire peut vous attribuer un autre rôle.',
    dismiss: 'Fermer',
    opening: 'Ouverture du tableau de bord',
  },
  notFound: {
    title: 'Introuvable',
    text: 'Cette page n’existe pas.',
    back: 'Retour à la vue d’ensemble',
  },
  referralState: {
    converted: 'inscrit',
    paid: 'payant',
    churned: 'parti',
    rejected: 'refusé',
  },
  commissionState: {
    pending: 'en attente',
    paid: 'versée',
    rejected: 'refusée',
  },
  partnershipState: {
    pending: 'en attente',
    accepted: 'acceptée',
    declined: 'refusée',
  },
  overview: {
    title: 'Vue d’ensemble',
    new: 'nouveau',
    against: 'par rapport à la période précédente',
    clicks: 'Clics',
    referrals: 'Parrainages',
    customers: 'Clients payants',
    perClick: 'par clic',
    perReferral: 'par parrainage',
    referralsPerClick: 'Parrainages par clic',
    revenue: 'Chiffre d’affaires',
    commissions: 'Commissions',
    owed: 'Dû à ce jour',
    funnel: 'Entonnoir',
    applications_one: '{{count}} candidature à examiner',
    applications_many: '{{count}} de candidatures à examiner',
    applications_other: '{{count}} candidatures à examiner',
    applicationsMore: 'Plus de {{count}} candidatures à examiner',
    applied: '{{name}} a posé sa candidature : acceptez-la ou refusez-la sur sa page',
    seeEvery: '{{link}} ; les candidatures y sont marquées en attente.',
    everyPartner: 'Voir tous les partenaires',
    noPartners: 'Pas encore de partenaires',
    noPartnersText:
      'Les partenaires partagent des liens vers votre site ; chaque visite et chaque inscription qu’ils apportent est comptée ici.',
    addFirst: '{{link}}, puis partagez son lien de parrainage.',
    addFirstLink: 'Ajoutez votre premier partenaire',
    newReferral: 'Nouveau parrainage, désormais {{state}}',
    commission: 'Commission de {{amount}}, {{state}}',
    noClicks: 'Aucun clic ni conversion sur cette période',
    noClicksText: 'Les visites sont comptées dès que le snippet est sur votre site et qu’un lien de partenaire est suivi.',
    getSnippet: '{{link}} et appelez {{call}} après l’inscription.',
    getSnippetLink: 'Récupérez le snippet',
    topPartners: 'Meilleurs partenaires',
    recent: 'Activité récente',
    nothingYet: 'Rien pour l’instant.',
  },
  rules: {
    title: 'Règles de commission',
    follow: ' ; vide : celle du programme, {{what}}',
    hold: 'Période de rétention, en jours',
    holdHint: '(un remboursement pendant cette période ne demande jamais de reprise{{follow}})',
    recurring: 'Limite de récurrence, en mois',
    recurringHint: '(0 : chaque paiement rapporte, pour toujours{{follow}})',
    minimum: 'Versement minimum',
    minimumHint: '(une devise par ligne, par exemple USD 50.00 ; aucune : tout montant est versé)',
    minimumHintInherit: '(une devise par ligne, par exemple USD 50.00 ; aucune : tout montant est versé ; vide : celui du programme)',
  },
  discounts: {
    once: '{{off}} de remise sur le premier paiement',
    months_one: '{{off}} de remise pendant {{count}} mois',
    months_many: '{{off}} de remise pendant {{count}} de mois',
    months_other: '{{off}} de remise pendant {{count}} mois',
    forever: '{{off}} de remise sur chaque paiement',
    madeBy: {
      owner: 'un propriétaire',
      partner: 'le partenaire, dans le portail',
      auto: 'Tally, à l’acceptation',
    },
  },
  webhooks: {
    enabled: 'activé',
    disabled: 'désactivé : {{reason}}',
    failingSince: 'en échec depuis le {{date}}',
    sendTest: 'Envoyer un événement de test',
    sendTestTo: 'Envoyer un événement de test à {{url}} ?',
    sendTestHere: 'Envoyer un événement de test à cet endpoint ?',
    send: 'Envoyer',
    testText: 'Un événement webhook.test lui est envoyé maintenant, signé comme tous les autres, et conservé parmi ses envois.',
  },
  signals: {
    no_click: {
      title: 'Aucune visite avant la conversion',
      description: "L'identifiant de clic du visiteur n'a jamais été vu lors d'une visite par le lien d'un partenaire avant sa conversion.",
    },
    address_burst: {
      title: 'Beaucoup de personnes depuis une adresse',
      description: "Plus de 5 personnes différentes ont converti depuis une même adresse client en moins d'une heure.",
    },
    browser_burst: {
      title: 'Beaucoup de personnes depuis un navigateur',
      description: "Plus de 2 personnes différentes ont converti avec l'identifiant de clic d'un même navigateur en moins d'un jour.",
    },
    click_rate: {
      title: 'Des clics à un rythme humainement impossible',
      description:
        "L'adresse qui convertit a fait 100 nouveaux clics sur les liens du programme en moins d'une heure. Désactivé par défaut : l'adresse partagée d'un opérateur mobile porte les clics de nombreuses personnes.",
    },
    partner_address: {
      title: "L'adresse d'un partenaire",
      description: "L'e-mail du client est l'adresse personnelle ou de paiement d'un partenaire, dans ce programme ou un autre.",
    },
    disposable_email: {
      title: 'Un domaine d’e-mail jetable',
      description: "L'e-mail du client est sur un domaine jetable (mailinator.com et consorts).",
    },
    paid_ads: {
      title: 'Publicités payantes sur la marque',
      description:
        "La visite portait l'identifiant de clic d'une publicité payante (gclid, fbclid, msclkid, ttclid…) : activez-le si les partenaires n'ont pas le droit de faire de la publicité sur votre marque. Désactivé par défaut.",
    },
    shared_payout: {
      title: 'Une adresse de paiement partagée par plusieurs partenaires',
      description: "L'adresse de paiement du partenaire crédité est aussi celle d'un autre partenaire.",
    },
    email_match: {
      title: "Rapproché par l'e-mail seul",
      description:
        "Un paiement d'une plateforme de facturation a été rapproché du parrainage par le seul e-mail du client, sans visite avant.",
    },
    quick_payment: {
      title: 'Payé quelques secondes après la visite',
      description:
        "Le premier paiement d'un parrainage est arrivé moins de 10 secondes après sa visite, plus vite qu'une personne ne s'inscrit et ne paie. Désactivé par défaut : l'heure de paiement d'une plateforme de facturation suit sa propre horloge.",
    },
  },
};

export default fr;
