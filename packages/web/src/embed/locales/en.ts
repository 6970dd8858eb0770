// The embedded portal's words in English: the shape every language follows
// (docs/languages.md). `{{name}}` is filled in.

export default {
  title: 'Your referral link and earnings',
  opening: 'Opening',
  expired: {
    title: 'This link has expired',
    text: 'Reload the page that shows it to see your referral link and earnings again.',
  },
  link: {
    title: 'Your referral link',
    copy: 'Copy link',
    anyPage: 'Adding ?red={{key}} to any page of the site counts too.',
    pending: 'Your partnership with {{program}} is waiting for their approval: your link appears here once they accept it.',
    declined: '{{program}} declined the partnership: there is no link to share.',
  },
  codes: {
    title: 'Your promotion codes',
    copy: 'Copy {{code}}',
    share: 'A customer who types {{code}} at checkout is yours, with no link to click.',
  },
  resources: {
    title: 'Brand resources',
    copy: 'Copy text',
    download: 'Download ({{size}})',
  },
  figures: {
    title: 'Your figures',
    clicks: 'Clicks',
    referrals: 'Referrals',
    customers: 'Paying customers',
    earned: 'Earned',
  },
  money: {
    title: 'Your earnings',
    pending: 'Pending ({{currency}})',
    next: 'Next payout ({{currency}})',
    paid: 'Paid ({{currency}})',
    none: 'Nothing earned yet: your earnings appear here from your first commission.',
  },
  payout: {
    next: 'Paid with the next payout.',
    nothing: 'Nothing is payable yet.',
    below_minimum: '{{payable}} is payable; payouts start at {{minimum}}.',
    clawbacks_exceed_earnings: 'Refunds took back as much as was earned: new earnings make up for it first.',
    no_paypal_email: '{{payable}} is payable: choose how you are paid below.',
    no_tax_form: '{{payable}} is payable once you give a valid tax form (W-9 or W-8).',
    not_accepted: '{{payable}} is payable once the partnership is accepted again.',
    later: 'More becomes payable on {{date}}.',
  },
  stripe: {
    returnTitle: 'Back from Stripe',
    returnText: 'You can close this window and go back to the page you came from: it shows what Stripe says about your account.',
    refreshTitle: 'This Stripe link has expired',
    refreshText: 'Close this window, go back to the page you came from and press Continue to Stripe again.',
  },
  messages: {
    title: 'Messages with {{program}}',
    mine: 'You',
    empty: 'No messages yet. Write to the team below.',
    reply: 'Your message',
    send: 'Send',
  },
  settings: {
    title: 'Settings',
    language: 'Language',
    automatic: 'Automatic',
    save: 'Save',
  },
};
