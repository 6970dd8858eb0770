import type { Catalogue } from '../words.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  ui: {
    loading: 'Wird geladen',
    tryAgain: 'Erneut versuchen',
    copy: 'Kopieren',
    copied: 'Kopiert',
    downloadCsv: 'CSV herunterladen',
    pages: 'Seiten',
    previous: 'Zurück',
    page: 'Seite {{page}}',
    next: 'Weiter',
  },
  api: {
    outdated: 'Diese Seite konnte nicht geladen werden; Tally wurde vielleicht aktualisiert. Laden Sie die Seite neu.',
    unreachable: 'Der Server ist nicht erreichbar. Prüfen Sie die Verbindung und versuchen Sie es erneut.',
    answered: 'Der Server antwortete mit {{status}}.',
  },
  forms: {
    locked_one: 'Zu oft hintereinander ein falsches Passwort. Versuchen Sie es in {{count}} Minute erneut.',
    locked_other: 'Zu oft hintereinander ein falsches Passwort. Versuchen Sie es in {{count}} Minuten erneut.',
    saved: 'Gespeichert.',
    cancel: 'Abbrechen',
    email: 'E-Mail',
    password: 'Passwort',
    signIn: 'Anmelden',
  },
  twoFactor: {
    title: 'Anmeldung in zwei Schritten',
    hint: 'Geben Sie den Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.',
    code: 'Code',
    go: 'Weiter',
    stepUp: 'Bestätigen Sie, dass Sie es sind',
  },
  reset: {
    title: 'Ein neues Passwort',
    yourEmail: 'Ihre E-Mail-Adresse',
    send: 'Link senden',
    sent: 'Wenn zu dieser Adresse {{who}} gehört, ist ein Link zum Festlegen eines neuen Passworts unterwegs. Er gilt einmal, 24 Stunden lang.',
    back: 'Zurück zur Anmeldung',
  },
  range: {
    label: 'Zeitraum',
    presets: {
      '7': 'Letzte 7 Tage',
      '30': 'Letzte 30 Tage',
      '90': 'Letzte 90 Tage',
      month: 'Dieser Monat',
      custom: 'Benutzerdefiniert',
    },
    from: 'Von',
    to: 'Bis',
    span: '{{from}} 00:00 bis {{to}} 24:00, {{zone}}',
  },
  measures: {
    title: 'Im Zeitverlauf',
    measure: 'Kennzahl',
    names: {
      clicks: 'Klicks',
      referrals: 'Empfehlungen',
      customers: 'Zahlende Kunden',
      revenue: 'Umsatz',
      commissions: 'Provisionen',
    },
  },
  chart: {
    failed: 'Das Diagramm konnte nicht gezeichnet werden; die Tabelle darunter enthält dieselben Zahlen.',
    asTable: '{{name}} als Tabelle',
    date: 'Datum',
  },
};

export default de;
