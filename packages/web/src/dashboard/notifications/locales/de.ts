// Die Wörter der E-Mail-Einstellungen auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'E-Mail-Benachrichtigungen',
  text: 'Welche E-Mails Tally Ihnen, {{email}}, für jedes Programm schickt, das Sie besitzen oder verwalten. Jede Nachricht enthält auch einen Link, der ihre Art abbestellt. Partner wählen ihre im Portal.',
  viewer: 'Betrachter erhalten keine dieser E-Mails; wechseln Sie zu einem Programm, das Sie besitzen oder verwalten, um sie zu ändern.',
  legend: 'Mir eine E-Mail schicken, wenn',
  unsaved: 'Noch nicht gespeichert.',
  save: 'Speichern',
  kinds: {
    link_waiting: {
      title: 'ein Partner einen Link-Schlüssel wählt',
      text: 'Ein Schlüssel, den ein Partner gewählt hat, wartet auf der Seite des Partners auf Ihre Freigabe.',
    },
    new_application: {
      title: 'sich ein Partner bewirbt',
      text: 'Jemand hat sich auf Ihrer öffentlichen Seite beworben und wartet darauf, dass Sie ihn annehmen.',
    },
    webhook_failing: {
      title: 'ein Webhook-Endpunkt fehlschlägt',
      text: 'Zustellungen an einen Ihrer Endpunkte schlagen seit einer Stunde fehl, oder Tally hat ihn deaktiviert.',
    },
    billing_failing: {
      title: 'Abrechnungsereignisse fehlschlagen',
      text: 'Ereignisse Ihrer Abrechnungsplattform konnten nicht verarbeitet werden. Höchstens eine E-Mail am Tag.',
    },
    review_waiting: {
      title: 'Geld zur Prüfung zurückgehalten wird',
      text: 'Empfehlungen oder Provisionen wurden zurückgehalten und warten auf Ihre Entscheidung. Höchstens eine E-Mail am Tag.',
    },
    payout_run_waiting: {
      title: 'ein geplanter Auszahlungslauf wartet',
      text: 'Der Auszahlungsplan hat einen Lauf erstellt, der auf die Freigabe durch einen Inhaber wartet. Höchstens eine E-Mail pro Lauf.',
    },
    partner_message: {
      title: 'ein Partner Ihnen schreibt',
      text: 'Ein Partner hat eine Nachricht geschickt, die das Team seit zehn Minuten nicht gelesen hat. Eine E-Mail pro Schwung Nachrichten.',
    },
    new_submission: {
      title: 'ein Partner etwas zu einer Prämie einreicht',
      text: 'Ein Partner hat einen Nachweis für eine Einreichungsprämie geschickt; er wartet auf Ihre Freigabe.',
    },
    new_lead: {
      title: 'ein Partner einen Lead einreicht',
      text: 'Ein Partner hat jemanden eingereicht, der Kunde werden könnte, damit Sie ihn qualifizieren, gewinnen oder verlieren.',
    },
    weekly_summary: {
      title: 'die Wochenübersicht da ist',
      text: 'Jeden Montag: Klicks, Empfehlungen, Kunden, Umsatz und Provisionen der letzten Woche im Vergleich zur Woche davor.',
    },
  },
};

export default de;
