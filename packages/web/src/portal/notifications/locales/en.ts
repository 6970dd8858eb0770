// The portal's e-mail preferences in English: the shape every language follows
// (docs/languages.md; nested under the portal's own catalogue, for notifications/ alone).

export default {
  title: 'E-mails',
  intro: 'Which e-mails the programs you joined send you, in all of them. Each e-mail also has a link that turns its kind off.',
  legend: 'E-mail me when',
  save: 'Save e-mail choices',
  unsaved: 'Not saved yet.',
  kinds: {
    application_received: { title: 'Your application arrives', text: 'A program received your application.' },
    application_approved: { title: 'You are accepted', text: 'A program accepted you; the e-mail has your referral link.' },
    application_declined: { title: 'You are declined', text: 'A program declined your application, with its reason if it gave one.' },
    first_referral: { title: 'Your first referral signs up', text: 'The first person you referred to a program signed up.' },
    commission_digest: { title: 'You earn commissions', text: "At most one e-mail a day, with the day's commissions and their total." },
    payout_sent: { title: 'You are paid', text: 'A program sent you a payout; the e-mail has the amount.' },
    clawback: { title: 'A commission is taken back', text: 'A paid commission was reversed, after a refund for example.' },
    code_created: { title: 'You get a promotion code', text: 'A program made a promotion code for you.' },
    message_waiting: {
      title: 'The team writes to you',
      text: 'A program’s team sent you a message you have not read for ten minutes; one e-mail per burst.',
    },
    bounty_awarded: { title: 'You reach a bounty', text: "You reached a performance bounty's target; the e-mail has the amount." },
    submission_approved: { title: 'Your bounty submission is approved', text: 'A program approved what you submitted for a bounty.' },
    submission_rejected: {
      title: 'Your bounty submission is rejected',
      text: 'A program rejected what you submitted for a bounty, with its reason.',
    },
    lead_stage: { title: 'A lead of yours moves on', text: 'A program qualified, won or lost a lead you submitted.' },
    new_recruit: {
      title: 'A partner joins through your recruitment link',
      text: 'Someone applied through your link, and you earn a share of their commissions.',
    },
    link_approved: { title: 'Your link is approved', text: 'A program approved a link key you chose.' },
  },
};
