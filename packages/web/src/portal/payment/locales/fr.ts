// La page de confirmation de l’adresse PayPal, en français (la forme suit en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  confirm: {
    title: 'Confirmer votre adresse PayPal',
    intro: 'Appuyez sur le bouton pour confirmer que les versements vont à cette adresse PayPal.',
    button: 'Confirmer l’adresse PayPal',
    confirmed: 'Votre adresse PayPal est confirmée : les versements peuvent y aller.',
    gone: 'Ce lien a expiré ou a déjà servi. Indiquez de nouveau votre adresse PayPal dans le portail pour en recevoir un nouveau.',
    toPortal: 'Ouvrir le portail',
  },
};

export default fr;
