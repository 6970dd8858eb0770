// Les mots de la page des leads en français (la forme est celle de en.ts).

import type { Catalogue } from '../../../common/i18n.js';
import type en from './en.js';

const fr: Catalogue<typeof en> = {
  title: 'Leads',
  intro: 'Les personnes que vos partenaires ont soumises. Qualifiez celles qui méritent un suivi, puis marquez chacune gagnée ou perdue.',
  stagesLabel: 'Étapes',
  all: 'Tous',
  stages: { new: 'Nouveau', qualified: 'Qualifié', won: 'Gagné', lost: 'Perdu' },
  stageWords: { new: 'nouveau', qualified: 'qualifié', won: 'gagné', lost: 'perdu' },
  moves: {
    qualified: {
      button: 'Qualifier',
      title: 'Qualifier ce lead ?',
      body: 'Vous assurez le suivi de cette personne. Son partenaire est prévenu.',
    },
    won: {
      button: 'Marquer gagné',
      title: 'Marquer ce lead comme gagné ?',
      body: 'La personne devient un parrainage du partenaire : ses paiements lui rapportent sa commission, comme pour tout parrainage. Son partenaire est prévenu.',
    },
    lost: { button: 'Marquer perdu', title: 'Marquer ce lead comme perdu ?', body: 'Son partenaire est prévenu, avec votre motif.' },
  },
  reason: 'Motif',
  reasonHint: '(le partenaire le voit)',
  submitted: 'Soumis',
  person: 'Personne',
  company: 'Entreprise',
  partner: 'Partenaire',
  notes: 'Notes',
  stage: 'Étape',
  referral: 'Parrainage',
  move: 'Suite',
  moved: '{{name}} : {{stage}}.',
  noneIn: { new: 'Aucun nouveau lead', qualified: 'Aucun lead qualifié', won: 'Aucun lead gagné', lost: 'Aucun lead perdu' },
  none: 'Pas encore de leads',
  noneText:
    'Les partenaires soumettent des leads dans leur portail ; vous pouvez aussi en soumettre un pour un partenaire avec POST /v1/leads.',
};

export default fr;
