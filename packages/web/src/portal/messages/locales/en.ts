// The portal's messages page in English: the shape every language follows
// (docs/languages.md; nested under the portal's own catalogue, for messages/ alone).

export default {
  title: 'Messages',
  intro: 'Your messages with the team of {{program}}. They get an e-mail when you write.',
  mine: 'You',
  empty: 'No messages yet. Write to the team below.',
  reply: 'Your message',
  send: 'Send',
};
