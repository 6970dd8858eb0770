// The partner's leads page in English: the shape every language follows (docs/languages.md).

export default {
  title: 'Leads',
  intro:
    'Introduce someone who could become a customer. The company follows them up; once it wins them, they are your referral and their payments earn you commissions.',
  notAccepted: 'You can submit leads once the program has accepted you.',
  form: 'Submit a lead',
  name: 'Name',
  email: 'E-mail',
  company: 'Company',
  notes: 'Notes',
  optional: '(optional)',
  submit: 'Submit lead',
  submitted: 'Lead submitted: {{name}}.',
  duplicate: {
    lead_email: 'This person was already submitted as a lead.',
    lead_domain: 'Someone from this company was already submitted as a lead.',
    referral_email: 'This person is already a referral of the program.',
  },
  yours: 'Your leads',
  none: 'No leads yet',
  noneText: 'The people you submit appear here, with how far each got.',
  date: 'Submitted',
  person: 'Person',
  stage: 'Stage',
  stages: {
    new: 'New',
    qualified: 'Qualified',
    won: 'Won',
    lost: 'Lost',
  },
  lostBecause: 'Lost: {{reason}}',
};
