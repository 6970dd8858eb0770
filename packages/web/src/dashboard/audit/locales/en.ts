// The words of the audit log in English: a part of the dashboard's catalogue, loaded with the page.

export default {
  title: 'Audit log',
  // The API does not say how long this server keeps entries (AUDIT_RETENTION_DAYS): no figure.
  intro: 'Every change made by your team, your partners or an API token, with what it changed, for the time this server keeps it.',
  kinds: { user: 'Team member', partner: 'Partner', token: 'API token', cli: 'Command line', system: 'Tally' },
  erased: 'erased',
  noChange: 'no field changed',
  fields_one: '{{n}} field',
  fields_other: '{{n}} fields',
  diff: { caption: 'Before and after', field: 'Field', before: 'Before', after: 'After' },
  columns: { when: 'When', who: 'Who', action: 'Action', target: 'Target', from: 'From', changes: 'Changes' },
  filters: { who: 'Who', anyone: 'Anyone', action: 'Action', record: 'Record id', from: 'From', to: 'To', go: 'Filter' },
  download: 'Download CSV',
  empty: {
    filtered: 'No changes match these filters',
    all: 'Show every change',
    none: 'No changes recorded yet',
    noneText:
      'When someone adds a partner, changes a setting or approves a payout run, here or through the API, the change appears here with who made it and what it changed.',
  },
};
