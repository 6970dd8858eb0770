// Die Wörter der Seite für Markenmaterial auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Markenmaterial',
  intro:
    'Logos, Bilder, Dokumente und Texte für Ihre Partner: Sie laden sie im Portal und im eingebetteten Portal herunter, in dieser Reihenfolge. Dateien werden nach ihrem Inhalt geprüft; PNG, JPEG, WebP, GIF, SVG (ohne Skripte), PDF und ZIP, bis 10 MB.',
  types: {
    png: 'PNG-Bild',
    jpeg: 'JPEG-Bild',
    webp: 'WebP-Bild',
    gif: 'GIF-Bild',
    svg: 'SVG-Bild',
    pdf: 'PDF-Dokument',
    zip: 'ZIP-Archiv',
  },
  file: 'Datei',
  upload: 'Datei hochladen',
  titleLabel: 'Titel',
  uploaded: 'Hochgeladen.',
  uploadButton: 'Hochladen',
  addCopy: 'Text hinzufügen',
  copyText: 'Text, den Partner kopieren',
  added: 'Hinzugefügt.',
  what: 'Was',
  addedAt: 'Hinzugefügt',
  actions: 'Aktionen',
  download: 'Herunterladen',
  copy: 'Kopieren',
  up: 'Nach oben',
  down: 'Nach unten',
  delete: 'Löschen',
  yours: 'Ihr Material',
  none: 'Noch kein Material',
  noneText: 'Laden Sie oben ein Logo hoch oder fügen Sie einen Text hinzu.',
  deleteTitle: '{{title}} löschen?',
  deleteText: 'Partner können es nicht mehr herunterladen. Ist es Ihr Logo, zeigen Ihre Seiten nur noch den Namen Ihres Programms.',
  branding: 'Branding',
  brandingText:
    'Was das Portal, Ihre öffentliche Seite und das eingebettete Portal statt Tally zeigen: Ihr Logo und Ihre Farbe. E-Mails an Partner kommen vom Namen Ihres Programms.',
  logo: 'Logo',
  noLogo: 'Keins: der Name des Programms',
  accent: 'Akzentfarbe',
  accentHint:
    'Als #rrggbb. Sie färbt Links und Schaltflächen auf Weiß und braucht daher einen Kontrast von mindestens 4,5:1 (WCAG AA); eine hellere wird abgelehnt.',
  host: 'Eigener Hostname',
  hostHint:
    'Wird vom Reverse Proxy Ihres Betreibers bedient: Seine Startseite öffnet Ihre öffentliche Seite. Siehe die Anleitung zum Selbsthosten.',
  saveBranding: 'Branding speichern',
};

export default de;
