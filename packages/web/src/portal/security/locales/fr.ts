// La connexion en deux étapes du portail, en français (la forme est celle d'en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  panel: {
    title: 'Sécurité',
    on: 'La connexion en deux étapes est activée : après votre mot de passe, la connexion demande un code de votre application d’authentification ou votre clé d’accès.',
    off: 'La connexion en deux étapes est désactivée : votre mot de passe suffit pour vous connecter.',
    manage: 'Connexion en deux étapes',
  },
  page: {
    title: 'Connexion en deux étapes',
    back: 'Retour aux paramètres',
    intro:
      'Après votre mot de passe, la connexion demande un code à six chiffres d’une application d’authentification sur votre téléphone : un mot de passe volé ne suffit plus. Changer la façon dont vous êtes payé redemande un code au bout de dix minutes. Une clé d’accès (l’empreinte, le visage ou le code PIN de cet appareil, ou une clé de sécurité) convient aussi, et vous connecte sans mot de passe.',
  },
  enrol: {
    add: 'Ajouter une application d’authentification',
    scan: 'Scannez ce code QR avec votre application d’authentification, ou saisissez-y la clé, puis entrez le code à six chiffres qu’elle affiche.',
    qr: 'Code QR de la clé, pour votre application d’authentification',
    key: 'Clé :',
    code: 'Code de l’application',
    confirm: 'Confirmer l’application',
    cancel: 'Annuler',
  },
  factor: {
    kinds: {
      totp: 'Application d’authentification',
      webauthn: 'Clé d’accès',
    },
    added: 'ajoutée le {{date}}',
    lastUsed: 'utilisée pour la dernière fois le {{date}}',
    left_one: 'il reste {{count}} code de récupération',
    left_many: 'il reste {{count}} de codes de récupération',
    left_other: 'il reste {{count}} codes de récupération',
    renew: 'Nouveaux codes de récupération',
    remove: 'Supprimer',
  },
  codes: {
    title: 'Vos codes de récupération',
    text: 'Affichés seulement maintenant. Chacun sert une fois, à la place d’un code de l’application, si vous perdez votre téléphone : conservez-les à part.',
    copy: 'Copier les codes',
    download: 'Télécharger les codes',
  },
  renew: {
    title: 'Nouveaux codes de récupération',
    text: 'Dix nouveaux codes remplacent vos codes de récupération : les anciens ne fonctionnent plus.',
    make: 'Créer de nouveaux codes',
  },
  remove: {
    title: 'Supprimer l’application d’authentification',
    text: 'La connexion ne demandera plus que votre mot de passe.',
    password: 'Mot de passe',
    done: 'L’application d’authentification est supprimée : votre mot de passe suffit désormais pour vous connecter.',
  },
  proof: 'Un code de l’application, ou un code de récupération',
  proofPasskey: '(laissez vide pour utiliser votre clé d’accès)',
};

export default fr;
