// Die Seite zur Bestätigung der PayPal-Adresse, auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  confirm: {
    title: 'PayPal-Adresse bestätigen',
    intro: 'Bestätigen Sie mit dem Knopf, dass Auszahlungen an diese PayPal-Adresse gehen.',
    button: 'PayPal-Adresse bestätigen',
    confirmed: 'Ihre PayPal-Adresse ist bestätigt: Auszahlungen können dorthin gehen.',
    gone: 'Dieser Link ist abgelaufen oder wurde schon benutzt. Geben Sie Ihre PayPal-Adresse im Portal erneut an, um einen neuen zu erhalten.',
    toPortal: 'Zum Portal',
  },
};

export default de;
