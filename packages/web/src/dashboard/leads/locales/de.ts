// Die Wörter der Leads-Seite auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Leads',
  intro:
    'Personen, die Ihre Partner eingereicht haben. Qualifizieren Sie die, die sich lohnen, und markieren Sie dann jede als gewonnen oder verloren.',
  stagesLabel: 'Phasen',
  all: 'Alle',
  stages: { new: 'Neu', qualified: 'Qualifiziert', won: 'Gewonnen', lost: 'Verloren' },
  stageWords: { new: 'neu', qualified: 'qualifiziert', won: 'gewonnen', lost: 'verloren' },
  moves: {
    qualified: {
      button: 'Qualifizieren',
      title: 'Diesen Lead qualifizieren?',
      body: 'Sie verfolgen diese Person weiter. Ihr Partner wird informiert.',
    },
    won: {
      button: 'Als gewonnen markieren',
      title: 'Diesen Lead als gewonnen markieren?',
      body: 'Die Person wird zur Empfehlung des Partners: Ihre Zahlungen bringen dem Partner Provision wie bei jeder Empfehlung. Ihr Partner wird informiert.',
    },
    lost: {
      button: 'Als verloren markieren',
      title: 'Diesen Lead als verloren markieren?',
      body: 'Ihr Partner wird informiert, mit Ihrem Grund.',
    },
  },
  reason: 'Grund',
  reasonHint: '(der Partner sieht ihn)',
  submitted: 'Eingereicht',
  person: 'Person',
  company: 'Unternehmen',
  partner: 'Partner',
  notes: 'Notizen',
  stage: 'Phase',
  referral: 'Empfehlung',
  move: 'Weiter',
  moved: '{{name}}: {{stage}}.',
  noneIn: {
    new: 'Keine neuen Leads',
    qualified: 'Keine qualifizierten Leads',
    won: 'Keine gewonnenen Leads',
    lost: 'Keine verlorenen Leads',
  },
  none: 'Noch keine Leads',
  noneText: 'Partner reichen Leads in ihrem Portal ein; Sie können mit POST /v1/leads auch einen für einen Partner einreichen.',
};

export default de;
