// La page Liens du portail, en français (la forme est celle d’en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  links: {
    title: 'Liens',
    intro: 'Des liens vers n’importe quelle page du site de {{program}}, chacun avec sa propre clé. Chaque lien vous est crédité.',
    yours: 'Vos liens',
    none: 'Aucun lien pour l’instant : créez-en un ci-dessous.',
    key: 'Clé',
    page: 'Page',
    status: 'État',
    clicks: 'Clics',
    referrals: 'Parrainages',
    conversions: 'Payants',
    share: 'Partager',
    copy: 'Copier le lien {{key}}',
    svg: 'Code QR {{key}} (SVG)',
    png: 'Code QR {{key}} (PNG)',
    make: 'Créer un lien',
    destination: 'Page vers laquelle pointer',
    destinationHint: 'Une adresse sur {{site}}',
    chosenKey: 'Clé (facultative)',
    keyRules: 'De {{min}} à {{max}} caractères ; laissée vide, une clé est inventée',
    keyMadeUp: 'Le programme invente la clé',
    approval: 'Une clé que vous choisissez attend l’approbation de l’entreprise.',
    submit: 'Créer le lien',
    state: { pending_approval: 'En attente d’approbation', active: 'Actif', disabled: 'Désactivé' },
  },
};

export default fr;
