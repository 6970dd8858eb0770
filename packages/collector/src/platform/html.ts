// Text placed in HTML of our own (the demo, `/`, the unsubscribe page, the e-mails' HTML
// part): escaped, so a program name or a token can never become markup.

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
