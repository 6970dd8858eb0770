// Die Wörter der Seite der Abrechnungsereignisse auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Abrechnungsereignisse',
  waitingFor: 'wartet auf {{what}}',
  records: { title: 'Datensätze', referral: 'Empfehlung', payment: 'Zahlung', commission: 'Provision' },
  again: 'Erneut verarbeiten',
  againLabel: 'Erneut verarbeiten: {{name}}',
  againTitle: '{{name}} erneut verarbeiten?',
  againText:
    'Tally behandelt es jetzt, als wäre es gerade eingetroffen: Es kann gutschreiben, verknüpfen, erstatten, zurückhalten oder freigeben, was es nennt.',
  outcomes: {
    credited: 'gutgeschrieben',
    linked: 'verknüpft',
    refunded: 'erstattet',
    held: 'zurückgehalten',
    released: 'freigegeben',
    churned: 'gekündigt',
    ignored: 'ignoriert',
    failed: 'fehlgeschlagen',
  },
  received: 'Empfangen',
  platform: 'Plattform',
  type: 'Typ',
  outcome: 'Ergebnis',
  test: 'Test',
  event: 'Ereignis',
  actions: 'Aktionen',
  all: 'Alle',
  any: 'Alle',
  filter: 'Filtern',
  noneOfPlatform: 'Keine Ereignisse von {{platform}} passen zu diesen Filtern',
  noneFiltered: 'Keine Abrechnungsereignisse passen zu diesen Filtern',
  showEvery: 'Alle Ereignisse zeigen',
  none: 'Noch keine Abrechnungsereignisse',
  noneText:
    'Verbinden Sie Stripe, Paddle oder Lemon Squeezy in den {{link}} und senden Sie dann ein Testereignis von der Plattform: Es erscheint hier mit dem, was es bewirkt hat.',
  settings: 'Einstellungen',
};

export default de;
