// Die Wörter des eingebetteten Portals auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Ihr Empfehlungslink und Ihre Einnahmen',
  opening: 'Wird geöffnet',
  expired: {
    title: 'Dieser Link ist abgelaufen',
    text: 'Laden Sie die Seite neu, die ihn zeigt, um Ihren Empfehlungslink und Ihre Einnahmen wieder zu sehen.',
  },
  link: {
    title: 'Ihr Empfehlungslink',
    copy: 'Link kopieren',
    anyPage: 'Auch ?red={{key}} an einer beliebigen Seite der Website zählt.',
    pending: 'Ihre Partnerschaft mit {{program}} wartet auf Freigabe: Ihr Link erscheint hier, sobald sie angenommen ist.',
    declined: '{{program}} hat die Partnerschaft abgelehnt: Es gibt keinen Link zum Teilen.',
  },
  codes: {
    title: 'Ihre Gutscheincodes',
    copy: '{{code}} kopieren',
    share: 'Wer an der Kasse {{code}} eingibt, zählt für Sie, ganz ohne Klick auf einen Link.',
  },
  resources: {
    title: 'Markenmaterial',
    copy: 'Text kopieren',
    download: 'Herunterladen ({{size}})',
  },
  figures: {
    title: 'Ihre Zahlen',
    clicks: 'Klicks',
    referrals: 'Empfehlungen',
    customers: 'Zahlende Kunden',
    earned: 'Verdient',
  },
  money: {
    title: 'Ihre Einnahmen',
    pending: 'Ausstehend ({{currency}})',
    next: 'Nächste Auszahlung ({{currency}})',
    paid: 'Ausgezahlt ({{currency}})',
    none: 'Noch nichts verdient: Ihre Einnahmen erscheinen hier ab Ihrer ersten Provision.',
  },
  payout: {
    next: 'Wird mit der nächsten Auszahlung überwiesen.',
    nothing: 'Noch ist nichts auszahlbar.',
    below_minimum: '{{payable}} sind auszahlbar; Auszahlungen beginnen ab {{minimum}}.',
    clawbacks_exceed_earnings: 'Erstattungen haben so viel zurückgenommen, wie verdient wurde: Neue Einnahmen gleichen das zuerst aus.',
    no_paypal_email: '{{payable}} sind auszahlbar: Wählen Sie unten, wie Sie bezahlt werden.',
    no_tax_form: '{{payable}} sind auszahlbar, sobald Sie ein gültiges Steuerformular (W-9 oder W-8) angeben.',
    not_accepted: '{{payable}} sind auszahlbar, sobald die Partnerschaft wieder angenommen ist.',
    later: 'Weiteres wird am {{date}} auszahlbar.',
  },
  stripe: {
    returnTitle: 'Zurück von Stripe',
    returnText: 'Sie können dieses Fenster schließen und zur vorigen Seite zurückkehren: Dort sehen Sie, was Stripe zu Ihrem Konto sagt.',
    refreshTitle: 'Dieser Stripe-Link ist abgelaufen',
    refreshText: 'Schließen Sie dieses Fenster, kehren Sie zur vorigen Seite zurück und drücken Sie erneut „Weiter zu Stripe“.',
  },
  messages: {
    title: 'Nachrichten mit {{program}}',
    mine: 'Sie',
    empty: 'Noch keine Nachrichten. Schreiben Sie dem Team unten.',
    reply: 'Ihre Nachricht',
    send: 'Senden',
  },
  settings: {
    title: 'Einstellungen',
    language: 'Sprache',
    automatic: 'Automatisch',
    save: 'Speichern',
  },
};

export default de;
