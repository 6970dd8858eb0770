// Every e-mail's two parts (the notifications', invitations' and resets') from one description: the plain text, and the HTML made
// by MJML (responsive e-mail markup compiled to what mail clients render), in the program's
// name and colour. Programs have no colour of their own yet: the portal's accent is theirs.

import { escapeHtml } from '../../platform/html.js';

/** The portal's and the dashboard's accent (packages/web/src/dashboard/style.css --accent). */
export const PROGRAM_COLOUR = '#0b6b78';

export interface Letter {
  program: string;
  lang: string;
  subject: string;
  paragraphs: string[];
  button: { label: string; url: string };
  /** Why the recipient gets it. */
  footer: string;
  /** A notification's link that stops its kind; an invitation or a reset has none. */
  unsubscribe?: { label: string; url: string } | undefined;
}

export function plainText(letter: Letter): string {
  return [
    letter.program,
    '',
    ...letter.paragraphs.flatMap((p) => [p, '']),
    `${letter.button.label}: ${letter.button.url}`,
    '',
    '--',
    letter.footer,
    ...(letter.unsubscribe ? [`${letter.unsubscribe.label}: ${letter.unsubscribe.url}`] : []),
    '',
  ].join('\n');
}

export async function html(letter: Letter, colour = PROGRAM_COLOUR): Promise<string> {
  const p = (text: string, attrs = '') => `<mj-text ${attrs}>${escapeHtml(text)}</mj-text>`;
  const source = `<mjml lang="${escapeHtml(letter.lang)}">
  <mj-head>
    <mj-title>${escapeHtml(letter.subject)}</mj-title>
    <mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /><mj-text font-size="15px" line-height="1.5" color="#1d2433" /></mj-attributes>
  </mj-head>
  <mj-body background-color="#f6f7f9">
    <mj-section background-color="${colour}"><mj-column>${p(letter.program, 'color="#ffffff" font-size="20px" font-weight="bold"')}</mj-column></mj-section>
    <mj-section background-color="#ffffff"><mj-column>
      ${letter.paragraphs.map((t) => p(t)).join('\n      ')}
      <mj-button background-color="${colour}" color="#ffffff" href="${escapeHtml(letter.button.url)}">${escapeHtml(letter.button.label)}</mj-button>
    </mj-column></mj-section>
    <mj-section><mj-column>
      ${p(letter.footer, 'font-size="12px" color="#545d70"')}
      ${letter.unsubscribe ? `<mj-text font-size="12px"><a href="${escapeHtml(letter.unsubscribe.url)}" style="color:#545d70">${escapeHtml(letter.unsubscribe.label)}</a></mj-text>` : ''}
    </mj-column></mj-section>
  </mj-body>
</mjml>`;
  // Loaded at the first e-mail, not at start: MJML and its parsers take about 65 MB of
  // memory, which a collector that sends no mail should not carry.
  const { default: mjml } = await import('mjml');
  const made = await mjml(source, { validationLevel: 'strict' });
  return made.html;
}
