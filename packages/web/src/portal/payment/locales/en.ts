// The PayPal confirmation page, in English: the shape every language follows
// (docs/languages.md; nested under the portal's own catalogue, for payment/ alone).

export default {
  confirm: {
    title: 'Confirm your PayPal address',
    intro: 'Press the button to confirm that payouts go to this PayPal address.',
    button: 'Confirm PayPal address',
    confirmed: 'Your PayPal address is confirmed: payouts can go to it.',
    gone: 'This link has expired or was already used. Set your PayPal address again in the portal to get a new one.',
    toPortal: 'Open the portal',
  },
};
