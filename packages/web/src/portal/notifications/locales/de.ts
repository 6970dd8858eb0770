// Die E-Mail-Auswahl des Portals auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'E-Mails',
  intro:
    'Welche E-Mails Ihnen die Programme senden, denen Sie beigetreten sind – für alle zugleich. Jede E-Mail enthält außerdem einen Link, der ihre Art abbestellt.',
  legend: 'Eine E-Mail an mich, wenn',
  save: 'E-Mail-Auswahl speichern',
  unsaved: 'Noch nicht gespeichert.',
  kinds: {
    application_received: { title: 'Ihre Bewerbung eingeht', text: 'Ein Programm hat Ihre Bewerbung erhalten.' },
    application_approved: {
      title: 'Sie angenommen werden',
      text: 'Ein Programm hat Sie angenommen; die E-Mail enthält Ihren Empfehlungslink.',
    },
    application_declined: {
      title: 'Sie abgelehnt werden',
      text: 'Ein Programm hat Ihre Bewerbung abgelehnt, mit seiner Begründung, falls es eine angegeben hat.',
    },
    first_referral: {
      title: 'Ihre erste Empfehlung eingeht',
      text: 'Die erste Person, die Sie an ein Programm empfohlen haben, hat sich angemeldet.',
    },
    commission_digest: {
      title: 'Sie Provisionen verdienen',
      text: 'Höchstens eine E-Mail am Tag, mit den Provisionen des Tages und ihrer Summe.',
    },
    payout_sent: {
      title: 'Sie eine Auszahlung erhalten',
      text: 'Ein Programm hat Ihnen eine Auszahlung gesendet; die E-Mail nennt den Betrag.',
    },
    clawback: {
      title: 'Eine Provision zurückgenommen wird',
      text: 'Eine ausgezahlte Provision wurde storniert, zum Beispiel nach einer Erstattung.',
    },
    code_created: { title: 'Sie einen Gutscheincode erhalten', text: 'Ein Programm hat einen Gutscheincode für Sie erstellt.' },
    message_waiting: {
      title: 'das Team Ihnen schreibt',
      text: 'Das Team eines Programms hat Ihnen eine Nachricht geschickt, die Sie seit zehn Minuten nicht gelesen haben; eine E-Mail pro Schwung.',
    },
    bounty_awarded: {
      title: 'Sie eine Prämie erreichen',
      text: 'Sie haben das Ziel einer Leistungsprämie erreicht; die E-Mail nennt den Betrag.',
    },
    submission_approved: {
      title: 'Ihre Prämien-Einreichung angenommen wird',
      text: 'Ein Programm hat Ihre Einreichung zu einer Prämie angenommen.',
    },
    submission_rejected: {
      title: 'Ihre Prämien-Einreichung abgelehnt wird',
      text: 'Ein Programm hat Ihre Einreichung zu einer Prämie abgelehnt, mit Begründung.',
    },
    lead_stage: {
      title: 'Ein Lead von Ihnen weiterkommt',
      text: 'Ein Programm hat einen von Ihnen übermittelten Lead qualifiziert, gewonnen oder verloren.',
    },
    new_recruit: {
      title: 'Ein Partner über Ihren Anwerbelink beitritt',
      text: 'Jemand hat sich über Ihren Link beworben, und Sie erhalten einen Anteil an den Provisionen.',
    },
    link_approved: { title: 'Ihr Link freigegeben wird', text: 'Ein Programm hat einen von Ihnen gewählten Link-Schlüssel freigegeben.' },
  },
};

export default de;
