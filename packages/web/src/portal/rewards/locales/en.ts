// A group's rewards in English: the shape every language follows (docs/languages.md; nested
// under the portal's own catalogue, for rewards/ alone). The sentences are the API's.

export default {
  what: {
    lead: '{{amount}} per sign-up',
    click: '{{amount}} per unique visitor',
    clickCapped: '{{amount}} per unique visitor, at most {{cap}} a day',
    percentage: '{{percent}} % of {{payments}}',
    sale: '{{amount}} per sale',
    flatMonths_one: '{{amount}} per payment for {{count}} month',
    flatMonths_other: '{{amount}} per payment for {{count}} months',
    flatLifetime: "{{amount}} per payment, for the customer's lifetime",
    ownRate: '{{percent}} % of each payment (your own rate)',
  },
  payments: {
    once: 'the first payment',
    months_one: 'each payment for {{count}} month',
    months_other: 'each payment for {{count}} months',
    lifetime: "each payment, for the customer's lifetime",
  },
  when: '{{what}}, when {{conditions}}',
  and: 'and',
  or: 'or',
  firstPayment: 'it is the first payment',
  renewal: 'it is a renewal',
  subject: {
    product_id: 'the product',
    price_id: 'the price',
    amount: 'the amount',
    currency: 'the currency',
    months_since_first_payment: 'the number of months since the first payment',
    customer_country: "the customer's country",
    metadata: 'the metadata key {{key}}',
    partner_customers: "the number of the partner's paying customers {{over}}",
    partner_revenue: "the partner's revenue {{over}}",
  },
  over: {
    toDate: 'to date',
    lastDays_one: 'over the last day',
    lastDays_other: 'over the last {{count}} days',
  },
  op: {
    eq: '{{subject}} is {{values}}',
    neq: '{{subject}} is not {{values}}',
    not_in: '{{subject}} is none of {{values}}',
    gt: '{{subject}} is over {{values}}',
    gte: '{{subject}} is at least {{values}}',
    lt: '{{subject}} is under {{values}}',
    lte: '{{subject}} is at most {{values}}',
  },
};
