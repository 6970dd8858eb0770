// Die Markenmaterialien des Portals auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Markenmaterial',
  intro: '{{program}} stellt Ihnen diese Logos, Bilder, Dokumente und Texte für Ihre Werbung zur Verfügung.',
  none: 'Noch kein Material',
  noneText: 'Das Programm hat noch nichts bereitgestellt.',
  download: 'Herunterladen',
  copy: 'Text kopieren',
  types: {
    image: 'Bild',
    pdf: 'PDF-Dokument',
    zip: 'ZIP-Archiv',
  },
};

export default de;
