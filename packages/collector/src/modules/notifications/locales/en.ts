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
    link_approved: 'links approved',
    link_waiting: 'links waiting for approval',
    new_application: 'new applications',
    webhook_failing: 'webhook endpoint failing',
    billing_failing: 'billing integration failing',
    review_waiting: 'held for review',
    weekly_summary: 'weekly summary',
    payout_run_waiting: 'payout run waiting for approval',
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
