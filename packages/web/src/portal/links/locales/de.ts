// Die Seite „Links“ des Portals, auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  links: {
    title: 'Links',
    intro: 'Links zu jeder Seite der Website von {{program}}, jeder mit einem eigenen Schlüssel. Jeder Link wird Ihnen gutgeschrieben.',
    yours: 'Ihre Links',
    none: 'Noch keine Links: Erstellen Sie unten einen.',
    key: 'Schlüssel',
    page: 'Seite',
    status: 'Status',
    clicks: 'Klicks',
    referrals: 'Empfehlungen',
    conversions: 'Zahlend',
    share: 'Teilen',
    copy: 'Link {{key}} kopieren',
    svg: 'QR-Code {{key}} (SVG)',
    png: 'QR-Code {{key}} (PNG)',
    make: 'Link erstellen',
    destination: 'Seite, auf die der Link führt',
    destinationHint: 'Eine Adresse auf {{site}}',
    chosenKey: 'Schlüssel (optional)',
    keyRules: '{{min}} bis {{max}} Zeichen; leer gelassen, wird einer erfunden',
    keyMadeUp: 'Das Programm erfindet den Schlüssel',
    approval: 'Ein selbst gewählter Schlüssel wartet auf die Freigabe durch das Unternehmen.',
    submit: 'Link erstellen',
    state: { pending_approval: 'Wartet auf Freigabe', active: 'Aktiv', disabled: 'Deaktiviert' },
  },
};

export default de;
