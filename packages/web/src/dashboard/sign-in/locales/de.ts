// Die Wörter der Anmeldeseiten des Dashboards auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  signIn: {
    title: 'Anmelden',
    forgot: 'Passwort vergessen?',
    notYet:
      'Noch kein Konto? Der erste Start des Servers hat einen einmaligen Anmeldelink ausgegeben; ein Inhaber kann Sie unter Einstellungen einladen, oder führen Sie {{command}} aus.',
  },
  reset: {
    who: 'ein Konto',
    withoutMail:
      'Dieses Tally kann keine E-Mails senden. Wer es betreibt, kann Ihnen mit npx tally users reset <Ihre E-Mail> einen Link ausgeben.',
  },
  enrol: {
    intro:
      'Ein Programm, das Sie betreiben, verlangt einen zweiten Faktor. Scannen Sie diesen Code mit Ihrer Authenticator-App (oder geben Sie den Schlüssel unten ein), dann tragen Sie den Code ein, den sie anzeigt.',
    recovery:
      'Ihre Wiederherstellungscodes, nur jetzt angezeigt. Jeder gilt einmal, falls Sie Ihr Telefon verlieren: Bewahren Sie sie getrennt davon auf.',
    qr: 'QR-Code des Schlüssels für Ihre Authenticator-App',
    key: 'Schlüssel:',
  },
  welcome: {
    incomplete: 'Dieser Link ist unvollständig',
    incompleteText: 'Öffnen Sie den ganzen Anmeldelink, den Sie erhalten haben, oder bitten Sie einen Inhaber um einen neuen.',
    title: 'Willkommen bei Tally',
    intro:
      'Wählen Sie das Passwort, mit dem Sie sich anmelden werden. Sie haben schon ein Konto in diesem Tally? Geben Sie stattdessen dessen Passwort ein, dann wird die Einladung diesem Konto hinzugefügt. Der Link gilt einmal, 24 Stunden lang.',
    email: 'E-Mail',
    emailHint: '(der erste Inhaber wählt sie hier; Eingeladene lassen das Feld leer)',
    password: 'Passwort',
    passwordHint: '(mindestens 10 Zeichen)',
    set: 'Passwort festlegen und anmelden',
  },
};

export default de;
