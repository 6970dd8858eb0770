// Les mots des pages de connexion du tableau de bord en français (la forme est celle d’en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  signIn: {
    title: 'Se connecter',
    forgot: 'Mot de passe oublié ?',
    notYet:
      'Pas encore de compte ? Le premier démarrage du serveur a affiché un lien de connexion à usage unique ; un propriétaire peut vous inviter depuis les Paramètres, ou lancez {{command}}.',
  },
  reset: {
    who: 'un compte',
    withoutMail:
      'Ce Tally ne peut pas envoyer d’e-mails. La personne qui l’administre peut vous afficher un lien avec npx tally users reset <votre e-mail>.',
  },
  enrol: {
    intro:
      'Un programme que vous gérez exige un second facteur. Scannez ce code avec votre application d’authentification (ou tapez la clé ci-dessous), puis saisissez le code qu’elle affiche.',
    recovery:
      'Vos codes de récupération, affichés maintenant seulement. Chacun sert une fois, si vous perdez votre téléphone : gardez-les à part.',
    qr: 'QR code de la clé, pour votre application d’authentification',
    key: 'Clé :',
  },
  welcome: {
    incomplete: 'Ce lien est incomplet',
    incompleteText: 'Ouvrez le lien de connexion entier que vous avez reçu, ou demandez-en un nouveau à un propriétaire.',
    title: 'Bienvenue dans Tally',
    intro:
      'Choisissez le mot de passe avec lequel vous vous connecterez. Vous avez déjà un compte sur ce Tally ? Donnez plutôt son mot de passe, et l’invitation le rejoint. Le lien sert une fois, pendant 24 heures.',
    email: 'E-mail',
    emailHint: '(le premier propriétaire le choisit ici ; les personnes invitées le laissent vide)',
    password: 'Mot de passe',
    passwordHint: '(au moins 10 caractères)',
    set: 'Choisir le mot de passe et se connecter',
  },
};

export default fr;
