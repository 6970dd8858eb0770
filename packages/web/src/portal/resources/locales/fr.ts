// La page des ressources de marque du portail en français (en.ts en donne la forme).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Ressources de marque',
  intro: '{{program}} met à votre disposition ces logos, images, documents et textes pour le promouvoir.',
  none: 'Aucune ressource pour l’instant',
  noneText: 'Le programme n’en a encore partagé aucune.',
  download: 'Télécharger',
  copy: 'Copier le texte',
  types: {
    image: 'Image',
    pdf: 'Document PDF',
    zip: 'Archive ZIP',
  },
};

export default fr;
