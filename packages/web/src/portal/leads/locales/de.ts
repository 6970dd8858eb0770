// Die Leads-Seite des Partners auf Deutsch (die Form gibt en.ts vor).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const de: Catalogue<typeof en> = {
  title: 'Leads',
  intro:
    'Stellen Sie jemanden vor, der Kunde werden könnte. Das Unternehmen kümmert sich um ihn; gewinnt es ihn, ist er Ihre Empfehlung, und seine Zahlungen bringen Ihnen Provisionen.',
  notAccepted: 'Sie können Leads übermitteln, sobald das Programm Sie angenommen hat.',
  form: 'Lead übermitteln',
  name: 'Name',
  email: 'E-Mail',
  company: 'Firma',
  notes: 'Notizen',
  optional: '(optional)',
  submit: 'Lead übermitteln',
  submitted: 'Lead übermittelt: {{name}}.',
  duplicate: {
    lead_email: 'Diese Person wurde bereits als Lead übermittelt.',
    lead_domain: 'Jemand aus dieser Firma wurde bereits als Lead übermittelt.',
    referral_email: 'Diese Person ist bereits eine Empfehlung des Programms.',
  },
  yours: 'Ihre Leads',
  none: 'Noch keine Leads',
  noneText: 'Die Personen, die Sie übermitteln, erscheinen hier, mit ihrem Stand.',
  date: 'Übermittelt',
  person: 'Person',
  stage: 'Stand',
  stages: {
    new: 'Neu',
    qualified: 'Qualifiziert',
    won: 'Gewonnen',
    lost: 'Verloren',
  },
  lostBecause: 'Verloren: {{reason}}',
};

export default de;
