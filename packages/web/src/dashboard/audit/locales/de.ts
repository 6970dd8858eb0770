// Die Wörter des Änderungsprotokolls auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Änderungsprotokoll',
  intro:
    'Jede Änderung Ihres Teams, Ihrer Partner oder eines API-Tokens, mit dem, was sie geändert hat, so lange dieser Server sie aufbewahrt.',
  kinds: { user: 'Teammitglied', partner: 'Partner', token: 'API-Token', cli: 'Befehlszeile', system: 'Tally' },
  erased: 'gelöscht',
  noChange: 'kein Feld geändert',
  fields_one: '{{n}} Feld',
  fields_other: '{{n}} Felder',
  diff: { caption: 'Vorher und nachher', field: 'Feld', before: 'Vorher', after: 'Nachher' },
  columns: { when: 'Wann', who: 'Wer', action: 'Aktion', target: 'Ziel', from: 'Von', changes: 'Änderungen' },
  filters: { who: 'Wer', anyone: 'Alle', action: 'Aktion', record: 'Datensatz-ID', from: 'Von', to: 'Bis', go: 'Filtern' },
  download: 'CSV herunterladen',
  empty: {
    filtered: 'Keine Änderungen passen zu diesen Filtern',
    all: 'Alle Änderungen anzeigen',
    none: 'Noch keine Änderungen aufgezeichnet',
    noneText:
      'Wenn jemand einen Partner hinzufügt, eine Einstellung ändert oder einen Auszahlungslauf freigibt, hier oder über die API, erscheint die Änderung hier, mit der Person, die sie vorgenommen hat, und dem, was sie geändert hat.',
  },
};

export default de;
