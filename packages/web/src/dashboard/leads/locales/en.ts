// The words of the leads page in English: a part of the dashboard's catalogue.

export default {
  title: 'Leads',
  intro: 'People your partners submitted. Qualify the ones worth following up, then mark each won or lost.',
  stagesLabel: 'Stages',
  all: 'All',
  stages: { new: 'New', qualified: 'Qualified', won: 'Won', lost: 'Lost' },
  stageWords: { new: 'new', qualified: 'qualified', won: 'won', lost: 'lost' },
  moves: {
    qualified: { button: 'Qualify', title: 'Qualify this lead?', body: 'You are following this person up. Their partner is told.' },
    won: {
      button: 'Mark won',
      title: 'Mark this lead won?',
      body: "They become the partner's referral: their payments earn the partner's commission, as any referral's do. Their partner is told.",
    },
    lost: { button: 'Mark lost', title: 'Mark this lead lost?', body: 'Their partner is told, with your reason.' },
  },
  reason: 'Reason',
  reasonHint: '(the partner sees it)',
  submitted: 'Submitted',
  person: 'Person',
  company: 'Company',
  partner: 'Partner',
  notes: 'Notes',
  stage: 'Stage',
  referral: 'Referral',
  move: 'Move',
  moved: '{{name}}: {{stage}}.',
  noneIn: { new: 'No new leads', qualified: 'No qualified leads', won: 'No won leads', lost: 'No lost leads' },
  none: 'No leads yet',
  noneText: 'Partners submit leads in their portal; you can also submit one for a partner with POST /v1/leads.',
};
