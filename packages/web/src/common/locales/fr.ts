import type { Catalogue } from '../words.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  ui: {
    loading: 'Chargement',
    tryAgain: 'Réessayer',
    copy: 'Copier',
    copied: 'Copié',
    downloadCsv: 'Télécharger le CSV',
    pages: 'Pages',
    previous: 'Précédent',
    page: 'Page {{page}}',
    next: 'Suivant',
  },
  api: {
    outdated: 'Cette page n’a pas pu être chargée ; Tally a peut-être été mis à jour. Rechargez la page.',
    unreachable: 'Le serveur est injoignable. Vérifiez la connexion et réessayez.',
    answered: 'Le serveur a répondu {{status}}.',
  },
  forms: {
    locked_one: 'Trop de mots de passe erronés d’affilée. Réessayez dans {{count}} minute.',
    locked_other: 'Trop de mots de passe erronés d’affilée. Réessayez dans {{count}} minutes.',
    locked_many: 'Trop de mots de passe erronés d’affilée. Réessayez dans {{count}} de minutes.',
    saved: 'Enregistré.',
    cancel: 'Annuler',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
  },
  twoFactor: {
    title: 'Connexion en deux étapes',
    hint: "Saisissez le code de votre application d'authentification, ou un code de récupération.",
    code: 'Code',
    go: 'Continuer',
    stepUp: "Confirmez que c'est vous",
  },
  reset: {
    title: 'Un nouveau mot de passe',
    yourEmail: 'Votre e-mail',
    send: 'Envoyez-moi un lien',
    sent: 'Si cette adresse a {{who}}, un lien pour choisir un nouveau mot de passe est en route. Il sert une fois, pendant 24 heures.',
    back: 'Retour à la connexion',
  },
  range: {
    label: 'Période',
    presets: {
      '7': '7 derniers jours',
      '30': '30 derniers jours',
      '90': '90 derniers jours',
      month: 'Ce mois-ci',
      custom: 'Personnalisée',
    },
    from: 'Du',
    to: 'Au',
    span: 'Du {{from}} 00:00 au {{to}} 24:00, {{zone}}',
  },
  measures: {
    title: 'Dans le temps',
    measure: 'Mesure',
    names: {
      clicks: 'Clics',
      referrals: 'Parrainages',
      customers: 'Clients payants',
      revenue: 'Chiffre d’affaires',
      commissions: 'Commissions',
    },
  },
  chart: {
    failed: 'Le graphique n’a pas pu être dessiné ; le tableau ci-dessous contient les mêmes chiffres.',
    asTable: '{{name}} sous forme de tableau',
    date: 'Date',
  },
};

export default fr;
