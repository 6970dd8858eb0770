// Die Wörter der Seite der Webhook-Zustellungen auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Webhook-Zustellungen',
  time: 'Zeit',
  status: 'Status',
  duration: 'Dauer',
  error: 'Fehler',
  answer: 'Antwort (erste Bytes)',
  deliveryOf: 'Zustellung von {{event}}',
  close: 'Schließen',
  state: 'Status',
  states: { pending: 'ausstehend', succeeded: 'erfolgreich', failed: 'fehlgeschlagen' },
  nextAttemptAt: '(nächster Versuch {{date}})',
  event: 'Ereignis',
  created: 'Erstellt',
  attempts: 'Versuche',
  notTried: 'Noch nicht versucht: Sie wird in ein, zwei Sekunden gesendet.',
  resend: 'Erneut senden',
  lastAnswer: 'Letzte Antwort',
  nextAttempt: 'Nächster Versuch',
  actions: 'Aktionen',
  openLabel: 'Zustellung von {{event}} öffnen, {{date}}',
  open: 'Öffnen',
  events: 'Ereignisse',
  allEvents: 'alle Ereignisse',
  enableInSettings: 'In den Einstellungen aktivieren',
  secret: 'Geheimnis',
  settings: 'Einstellungen',
  webhooks: 'Webhooks',
  refresh: 'Aktualisieren',
  testSent: 'Ein Testereignis ist unterwegs: Es erscheint unten.',
  resent: 'Erneut gesendet, als neue Zustellung: Sie ist hier geöffnet.',
  any: 'Alle',
  noneIn: {
    pending: 'Keine ausstehenden Zustellungen',
    succeeded: 'Keine erfolgreichen Zustellungen',
    failed: 'Keine fehlgeschlagenen Zustellungen',
  },
  none: 'Noch keine Zustellungen',
  noneText:
    'Jedes Ereignis, das dieser Endpunkt empfangen soll, wird hier zugestellt, und jeder Versuch wird aufbewahrt. Senden Sie ein Testereignis, um eines ankommen zu sehen.',
};

export default de;
