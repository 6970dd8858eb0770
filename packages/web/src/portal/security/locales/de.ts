// Die Anmeldung in zwei Schritten im Portal, auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  panel: {
    title: 'Sicherheit',
    on: 'Die Anmeldung in zwei Schritten ist aktiv: Nach Ihrem Passwort fragt die Anmeldung nach einem Code aus Ihrer Authenticator-App oder Ihrem Passkey.',
    off: 'Die Anmeldung in zwei Schritten ist aus: Ihr Passwort allein meldet Sie an.',
    manage: 'Anmeldung in zwei Schritten',
  },
  page: {
    title: 'Anmeldung in zwei Schritten',
    back: 'Zurück zu den Einstellungen',
    intro:
      'Nach Ihrem Passwort fragt die Anmeldung nach einem sechsstelligen Code aus einer Authenticator-App auf Ihrem Telefon, damit ein gestohlenes Passwort nicht genügt. Wenn Sie ändern, wie Sie bezahlt werden, wird nach zehn Minuten erneut nach einem Code gefragt. Ein Passkey (Fingerabdruck, Gesicht oder PIN dieses Geräts oder ein Sicherheitsschlüssel) geht auch und meldet Sie ohne Passwort an.',
  },
  enrol: {
    add: 'Authenticator-App hinzufügen',
    scan: 'Scannen Sie diesen QR-Code mit Ihrer Authenticator-App oder geben Sie den Schlüssel dort ein, dann tragen Sie den sechsstelligen Code ein, den die App anzeigt.',
    qr: 'QR-Code des Schlüssels für Ihre Authenticator-App',
    key: 'Schlüssel:',
    code: 'Code aus der App',
    confirm: 'App bestätigen',
    cancel: 'Abbrechen',
  },
  factor: {
    kinds: {
      totp: 'Authenticator-App',
      webauthn: 'Passkey',
    },
    added: 'hinzugefügt am {{date}}',
    lastUsed: 'zuletzt verwendet am {{date}}',
    left_one: 'noch {{count}} Wiederherstellungscode',
    left_other: 'noch {{count}} Wiederherstellungscodes',
    renew: 'Neue Wiederherstellungscodes',
    remove: 'Entfernen',
  },
  codes: {
    title: 'Ihre Wiederherstellungscodes',
    text: 'Nur jetzt angezeigt. Jeder gilt einmal, anstelle eines Codes aus der App, falls Sie Ihr Telefon verlieren: Bewahren Sie sie getrennt davon auf.',
    copy: 'Codes kopieren',
    download: 'Codes herunterladen',
  },
  renew: {
    title: 'Neue Wiederherstellungscodes',
    text: 'Zehn neue Codes ersetzen Ihre Wiederherstellungscodes: Die bisherigen gelten nicht mehr.',
    make: 'Neue Codes erstellen',
  },
  remove: {
    title: 'Authenticator-App entfernen',
    text: 'Die Anmeldung fragt dann nur noch nach Ihrem Passwort.',
    password: 'Passwort',
    done: 'Die Authenticator-App ist entfernt: Ihr Passwort allein meldet Sie jetzt an.',
  },
  proof: 'Ein Code aus der App oder ein Wiederherstellungscode',
  proofPasskey: '(leer lassen, um Ihren Passkey zu verwenden)',
};

export default de;
