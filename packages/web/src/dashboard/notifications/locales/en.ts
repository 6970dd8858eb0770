// The words of the owner's e-mail preferences in English: a part of the dashboard's catalogue.

export default {
  title: 'E-mail notifications',
  text: 'Which e-mails Tally sends you, {{email}}, for each program you own or administer. Each message also has a link that turns its kind off. Partners choose theirs in the portal.',
  viewer: 'Viewers get none of these e-mails; switch to a program you own or administer to change them.',
  legend: 'E-mail me when',
  unsaved: 'Not saved yet.',
  save: 'Save',
  kinds: {
    link_waiting: { title: 'A partner chooses a link key', text: "A key a partner chose waits for your approval on the partner's page." },
    new_application: { title: 'A partner applies', text: 'Someone applied on your public page and waits for you to accept them.' },
    webhook_failing: {
      title: 'A webhook endpoint is failing',
      text: 'Deliveries to one of your endpoints have failed for an hour, or Tally disabled it.',
    },
    billing_failing: {
      title: 'Billing events fail',
      text: 'Events from your billing platform could not be applied. At most one e-mail a day.',
    },
    review_waiting: {
      title: 'Money is held for review',
      text: 'Referrals or commissions were held and wait for your decision. At most one e-mail a day.',
    },
    payout_run_waiting: {
      title: 'A scheduled payout run waits',
      text: 'The payout schedule made a run that waits for an owner to approve it. At most one e-mail a run.',
    },
    partner_message: {
      title: 'A partner writes to you',
      text: 'A partner sent a message the team has not read for ten minutes. One e-mail per burst of messages.',
    },
    new_submission: {
      title: 'A partner submits to a bounty',
      text: 'A partner sent proof for a submission bounty; it waits for your approval.',
    },
    new_lead: {
      title: 'A partner submits a lead',
      text: 'A partner submitted someone who could become a customer, for you to qualify, win or lose.',
    },
    weekly_summary: {
      title: 'The weekly summary',
      text: "Each Monday: last week's clicks, referrals, customers, revenue and commissions against the week before.",
    },
  },
};
