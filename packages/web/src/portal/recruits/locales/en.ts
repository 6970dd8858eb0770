// The recruits page in English (docs/two-tier.md): the shape every language follows, nested
// under the portal's own catalogue for recruits/ alone.

export default {
  title: 'Recruits',
  link: 'Your recruitment link',
  linkText: 'Partners who apply through this link become your recruits, and you earn a share of their commissions.',
  noLink: 'This program does not reward recruiting partners, or has no public page yet: there is no recruitment link.',
  copy: 'Copy link',
  recruitedBy: 'You were recruited by {{name}}.',
  earned: 'Your second-tier earnings',
  nothing: 'Nothing yet',
  yours: 'Your recruits',
  name: 'Partner',
  joined: 'Joined',
  theirShare: 'You earned',
  none: 'No recruits yet',
  noneText: 'Share your recruitment link with people who could promote this program too.',
};
