// E-mail to partners (an invitation, a password reset), sent through the SMTP server of
// SMTP_URL with nodemailer. Without SMTP_URL nothing is sent: the owner's dashboard
// shows the one-time link to hand over instead. Addresses never reach the log.

import type { Transporter } from 'nodemailer';

export interface Message {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML, sent beside the text (multipart/alternative). */
  html?: string;
  /** Extra headers: a notification's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
  /** The From display name, a program's to its partners (docs/branding.md); MAIL_FROM's address stays, so SPF and DKIM still pass. */
  fromName?: string;
}

/** MAIL_FROM's address: `Tally <tally@example.com>` or a bare address. */
export const addressOf = (from: string): string => /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

export interface Mailer {
  send(message: Message): Promise<void>;
}

/** A mailer for `smtpUrl` (smtp://user:pass@host:587, smtps://… for TLS from the start). */
export function createMailer(smtpUrl: string, from: string): Mailer {
  // Loaded at the first message, not at start: nodemailer took about 15 MB (issue 47).
  let transport: Promise<Transporter> | undefined;
  const transportOf = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
  return {
    async send({ to, subject, text, html, headers, fromName }) {
      const sender = fromName ? { name: fromName, address: addressOf(from) } : from;
      try {
        await (await transportOf()).sendMail({
          from: sender,
          to,
          subject,
          text,
          ...(html ? { html } : {}),
          ...(headers ? { headers } : {}),
        });
      } catch (err) {
        // nodemailer's messages may quote the recipient: the error that reaches the log says only what failed.
        const code = (err as { code?: string; responseCode?: number }).code ?? (err as { responseCode?: number }).responseCode ?? 'unknown';
        throw new Error(`sending e-mail through SMTP_URL failed (${code})`);
      }
    },
  };
}
