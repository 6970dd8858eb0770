// La page des leads du partenaire en français (en.ts en donne la forme).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Leads',
  intro:
    'Présentez quelqu’un qui pourrait devenir client. L’entreprise le suit ; une fois gagné, c’est votre filleul, et ses paiements vous rapportent des commissions.',
  notAccepted: 'Vous pourrez soumettre des leads une fois accepté par le programme.',
  form: 'Soumettre un lead',
  name: 'Nom',
  email: 'E-mail',
  company: 'Entreprise',
  notes: 'Notes',
  optional: '(facultatif)',
  submit: 'Soumettre le lead',
  submitted: 'Lead soumis : {{name}}.',
  duplicate: {
    lead_email: 'Cette personne a déjà été soumise comme lead.',
    lead_domain: 'Quelqu’un de cette entreprise a déjà été soumis comme lead.',
    referral_email: 'Cette personne est déjà un filleul du programme.',
  },
  yours: 'Vos leads',
  none: 'Pas encore de leads',
  noneText: 'Les personnes que vous soumettez apparaissent ici, avec leur avancement.',
  date: 'Soumis le',
  person: 'Personne',
  stage: 'Étape',
  stages: {
    new: 'Nouveau',
    qualified: 'Qualifié',
    won: 'Gagné',
    lost: 'Perdu',
  },
  lostBecause: 'Perdu : {{reason}}',
};

export default fr;
