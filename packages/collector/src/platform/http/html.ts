// Text placed in the collector's own HTML pages (the demo, `/`): escaped, so a program
// name or a token can never become markup.

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
