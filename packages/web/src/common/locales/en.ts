// The shared components' words (ui, forms, reset, range, measures, chart, api): English for
// the dashboard, and the partner's language in the portal (docs/languages.md).

export default {
  ui: {
    loading: 'Loading',
    tryAgain: 'Try again',
    copy: 'Copy',
    copied: 'Copied',
    downloadCsv: 'Download CSV',
    pages: 'Pages',
    previous: 'Previous',
    page: 'Page {{page}}',
    next: 'Next',
  },
  api: {
    outdated: 'This page could not be loaded; Tally may have been updated. Reload the page.',
    unreachable: 'The collector could not be reached. Check the connection and try again.',
    answered: 'The collector answered {{status}}.',
  },
  forms: {
    locked_one: 'Too many wrong passwords in a row. Try again in {{count}} minute.',
    locked_other: 'Too many wrong passwords in a row. Try again in {{count}} minutes.',
    saved: 'Saved.',
    cancel: 'Cancel',
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
  },
  twoFactor: {
    title: 'Two-step sign-in',
    hint: 'Enter the code from your authenticator app, or a recovery code.',
    code: 'Code',
    go: 'Continue',
    stepUp: 'Confirm it is you',
  },
  reset: {
    title: 'A new password',
    yourEmail: 'Your e-mail',
    send: 'Send me a link',
    sent: 'If this address has {{who}}, a link to set a new password is on its way. It works once, for 24 hours.',
    back: 'Back to sign-in',
  },
  range: {
    label: 'Range',
    presets: {
      '7': 'Last 7 days',
      '30': 'Last 30 days',
      '90': 'Last 90 days',
      month: 'This month',
      custom: 'Custom',
    },
    from: 'From',
    to: 'To',
    span: '{{from}} 00:00 to {{to}} 24:00, {{zone}}',
  },
  measures: {
    title: 'Over time',
    measure: 'Measure',
    names: {
      clicks: 'Clicks',
      referrals: 'Referrals',
      customers: 'Paying customers',
      revenue: 'Revenue',
      commissions: 'Commissions',
    },
  },
  chart: {
    failed: 'The chart could not be drawn; the table below has the same numbers.',
    asTable: '{{name}} as a table',
    date: 'Date',
  },
};
