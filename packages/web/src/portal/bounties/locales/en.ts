// The bounties page in English: the shape every language follows (docs/languages.md;
// nested under the portal's own catalogue, for bounties/ alone).

export default {
  title: 'Bounties',
  intro: 'Extra rewards for what you do in a period: reach a target, or send proof of your work for review.',
  none: 'No bounty is open for you now.',
  reward: 'Reward: {{amount}}',
  period: 'From {{from}} to {{to}}',
  target: {
    sales: 'Reach {{target}} sales',
    leads: 'Reach {{target}} sign-ups',
    revenue: 'Reach {{target}} of revenue',
  },
  progress: 'Your progress',
  progressText: '{{value}} of {{target}}',
  awarded: 'Reached: the reward is in your commissions.',
  left_one: 'You may submit once more.',
  left_other: 'You may submit {{count}} more times.',
  noneLeft: 'You have sent all the submissions this bounty takes.',
  urls: 'Links, one a line',
  urlsHint: 'At most {{count}}, starting with https://',
  urlRequired: 'At least one link is required.',
  text: 'What you did',
  textHint: 'At most {{count}} characters',
  submit: 'Submit',
  sent: 'Sent: the company will review it.',
  yours: 'Your submissions',
  state: {
    pending: 'Waiting for review',
    approved: 'Approved',
    rejected: 'Rejected: {{reason}}',
  },
};
