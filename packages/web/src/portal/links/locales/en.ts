// The portal's Links page, in English: the shape every language follows (docs/languages.md;
// nested under the portal's own catalogue, for links/ alone).

export default {
  links: {
    title: 'Links',
    intro: 'Links to any page of {{program}}’s site, each with a key of its own. Every link credits you.',
    yours: 'Your links',
    none: 'No links yet: make one below.',
    key: 'Key',
    page: 'Page',
    status: 'Status',
    clicks: 'Clicks',
    referrals: 'Referrals',
    conversions: 'Paying',
    share: 'Share',
    copy: 'Copy link {{key}}',
    svg: 'QR code {{key}} (SVG)',
    png: 'QR code {{key}} (PNG)',
    make: 'Make a link',
    destination: 'Page to link to',
    destinationHint: 'An address on {{site}}',
    chosenKey: 'Key (optional)',
    keyRules: '{{min}} to {{max}} characters; left empty, one is made up',
    keyMadeUp: 'The program makes up the key',
    approval: 'A key you choose waits for the company’s approval.',
    submit: 'Make link',
    state: { pending_approval: 'Waiting for approval', active: 'Active', disabled: 'Disabled' },
  },
};
