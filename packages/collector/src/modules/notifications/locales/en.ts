// The e-mails' words in English: the shape every other language must match.

export default {
  common: {
    open_portal: 'Open your portal',
    open_dashboard: 'Open the dashboard',
    why_partner: 'You get this e-mail as a partner of {{program}}.',
    why_owner: 'You get this e-mail as an owner of {{program}} on Tally.',
    unsubscribe: 'Stop these e-mails ({{kind}})',
  },
  kinds: {
    application_received: 'application received',
    application_approved: 'application approved',
    application_declined: 'application declined',
    first_referral: 'first referral',
    commission_digest: 'daily commissions',
    payout_sent: 'payout sent',
    clawback: 'clawbacks',
    code_created: 'new codes',
    message_waiting: 'messages from the team',
    new_recruit: 'new recruits',
    link_approved: 'links approved',
    link_waiting: 'links waiting for approval',
    new_application: 'new applications',
    webhook_failing: 'webhook endpoint failing',
    billing_failing: 'billing integration failing',
    review_waiting: 'held for review',
    weekly_summary: 'weekly summary',
    payout_run_waiting: 'payout run waiting for approval',
    partner_message: "partners' messages",
    bounty_awarded: 'bounties awarded',
    submission_approved: 'submissions approved',
    submission_rejected: 'submissions rejected',
    new_submission: 'new bounty submissions',
    lead_stage: 'lead stage changes',
    new_lead: 'new leads',
  },
  application_received: {
    subject: '{{program}} received your application',
    body: 'Hello {{name}}, thank you for applying to the partner program of {{program}}. We will tell you as soon as it has been reviewed.',
  },
  application_approved: {
    subject: 'Welcome to the {{program}} partner program',
    body: 'Hello {{name}}, your application to {{program}} has been approved. Your referral link is {{link}}: share it, and every customer it brings earns you a commission.',
  },
  application_declined: {
    subject: 'Your application to {{program}}',
    body: 'Hello {{name}}, your application to the partner program of {{program}} has been declined.',
    reason: 'The reason given: {{reason}}',
  },
  first_referral: {
    subject: 'Your first referral for {{program}}',
    body: 'Congratulations {{name}}: someone you referred just signed up with {{program}}. Your link works!',
  },
  commission_digest: {
    subject_one: 'You earned {{total}} with {{program}} today',
    subject_other: 'You earned {{total}} with {{program}} today ({{count}} commissions)',
    body_one: 'Hello {{name}}, on {{day}} you earned one commission with {{program}}: {{total}}.',
    body_other: 'Hello {{name}}, on {{day}} you earned {{count}} commissions with {{program}}, {{total}} in all.',
  },
  payout_sent: {
    subject: '{{program}} sent you {{amount}}',
    body: 'Hello {{name}}, {{program}} has paid you {{amount}} for {{count}} commissions, to your PayPal address.',
  },
  clawback: {
    subject: 'A commission from {{program}} was taken back',
    body: 'Hello {{name}}, a payment was refunded, so {{amount}} earned with {{program}} was taken back from your balance.',
  },
  code_created: {
    subject: 'Your new code for {{program}}: {{code}}',
    body: 'Hello {{name}}, you have a new promotion code for {{program}}: {{code}}. A customer who types it at checkout counts as yours, even without your link.',
  },
  message_waiting: {
    subject: '{{program}} sent you a message',
    body: 'Hello {{name}}, the team of {{program}} wrote to you:',
    answer: 'Read it and answer in your portal.',
  },
  partner_message: {
    subject: '{{name}} sent {{program}} a message',
    body: '{{name}} ({{email}}) wrote:',
  },
  lead_stage: {
    subject: 'Your lead {{lead}} at {{program}}',
    qualified: 'Hello {{name}}, {{program}} qualified your lead {{lead}}: they are following it up.',
    won: 'Hello {{name}}, {{program}} won your lead {{lead}}: they are now your referral, and their payments earn you commissions.',
    lost: 'Hello {{name}}, {{program}} closed your lead {{lead}} as lost.',
    reason: 'The reason given: {{reason}}',
  },
  new_lead: {
    subject: '{{partner}} submitted a lead to {{program}}',
    body: '{{partner}} submitted {{name}} ({{email}}, company: {{company}}) as a lead of {{program}}. Qualify it, then mark it won or lost.',
  },
  new_recruit: {
    subject: '{{recruit}} joined {{program}} through your link',
    body: 'Hello {{name}}, {{recruit}} applied to the partner program of {{program}} through your recruitment link. From now on you earn a share of their commissions: see Recruits in your portal.',
  },
  link_approved: {
    subject: 'Your link {{key}} for {{program}} is approved',
    body: 'Hello {{name}}, {{program}} approved your link with the key {{key}}: every visit through it now counts as yours.',
  },
  link_waiting: {
    subject: '{{name}} chose the link key {{key}} for {{program}}',
    body: '{{name}} ({{email}}) made a link with the key {{key}}, which waits for your approval on their page.',
  },
  new_application: {
    subject: '{{name}} applied to {{program}}',
    body: '{{name}} ({{email}}) applied to become a partner of {{program}}.',
    note: 'Their note: {{note}}',
  },
  webhook_failing: {
    subject: 'A webhook endpoint of {{program}} is failing',
    body: 'Deliveries to {{url}} have failed since {{since}}.',
    disabled: 'Tally has disabled the endpoint: {{reason}}. Turn it on again once it answers.',
  },
  billing_failing: {
    subject: '{{program}}: billing events could not be applied',
    body_one: 'One event from {{platform}} could not be applied in the last day: {{reason}}.',
    body_other: '{{count}} events from {{platform}} could not be applied in the last day; the last one: {{reason}}.',
  },
  review_waiting: {
    subject: '{{program}}: money held for review',
    body_one: 'One referral or commission of {{program}} is held for review and waits for your decision.',
    body_other: '{{count}} referrals and commissions of {{program}} are held for review and wait for your decision.',
  },
  payout_run_waiting: {
    subject: '{{program}}: a scheduled payout run waits for your approval',
    body_one:
      'The schedule made a payout run of {{program}} for the period from {{period}}: one payout to a partner, {{total}}. It is paid only once an owner approves and sends it.',
    body_other:
      'The schedule made a payout run of {{program}} for the period from {{period}}: {{count}} payouts to partners, {{total}} in all. It is paid only once an owner approves and sends it.',
  },
  weekly_summary: {
    subject: '{{program}}: your week from {{from}} to {{to}}',
    intro: 'The week of {{program}} from {{from}} to {{to}}, against the week before:',
    line: '{{label}}: {{value}} (week before: {{before}})',
    clicks: 'Clicks',
    referrals: 'Referrals',
    customers: 'Paying customers',
    revenue: 'Revenue',
    commissions: 'Commissions',
  },
  bounty_awarded: {
    subject: 'You reached the bounty {{bounty}} of {{program}}',
    body: 'Congratulations {{name}}: you reached the target of the bounty {{bounty}}, and {{program}} has added {{amount}} to your commissions.',
  },
  submission_approved: {
    subject: '{{program}} approved your submission to {{bounty}}',
    body: 'Hello {{name}}, {{program}} approved what you submitted for the bounty {{bounty}}: {{amount}} was added to your commissions.',
  },
  submission_rejected: {
    subject: 'Your submission to {{bounty}} of {{program}}',
    body: 'Hello {{name}}, {{program}} did not accept what you submitted for the bounty {{bounty}}. The reason given: {{reason}}',
  },
  new_submission: {
    subject: '{{program}}: a bounty submission to review',
    body: 'A partner of {{program}} submitted proof for a bounty; it waits for your approval.',
  },
  invitation: {
    subject: 'Your partner portal at {{program}}',
    body: '{{program}} invites you to its partner portal, where you find your referral link and what you earned.',
    button: 'Choose your password',
    why: 'You get this e-mail because {{program}} invited this address to its partner portal. The link works once, for 24 hours.',
  },
  payout_confirmation: {
    subject: 'Confirm your PayPal address for {{program}}',
    body: 'Confirm that {{program}} may pay you at this PayPal address: {{email}}.',
    button: 'Confirm this address',
    why: 'You receive this e-mail because a partner of {{program}} chose this address for their payouts. The link works for 24 hours; if it was not you, ignore this message.',
  },
  reset: {
    portal: 'Partner portal',
    partner_subject: 'Set a new password for the partner portal',
    owner_subject: 'Set a new password for the dashboard',
    partner_body: 'Someone asked to set a new password for your partner account. If it was you, choose it with the link below.',
    owner_body: 'Someone asked to set a new password for your Tally account. If it was you, choose it with the link below.',
    button: 'Choose a new password',
    why: 'The link works once, for 24 hours. If it was not you, ignore this message: your password stays as it is.',
  },
  team_invitation: {
    subject: 'Confirm your invitation to {{program}}',
    body: 'You are invited to run {{program}} on Tally. This address is invited to another program here too, so its password is chosen only with a link sent to it: this one.',
    button: 'Choose your password and accept',
    why: 'You get this e-mail because the invitation of this address to {{program}} was used. The link works once, until the invitation expires; if you expected none, ignore this message.',
  },
};
