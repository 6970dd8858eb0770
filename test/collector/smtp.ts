// A real SMTP server for the tests (the smtp-server package) on a free port: it keeps
// every message it receives, so a test reads a link out of the mail as a person would.

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  raw: string;
}

/** A message as one recipient got it. */
export interface Mail {
  to: string;
  raw: string;
  /** The message with quoted-printable soft breaks and =3D undone. */
  text: string;
}

export interface Inbox {
  url: string;
  messages: Received[];
  /** The messages received so far, once per recipient. */
  readonly mails: Mail[];
  /** Takes the messages received so far, once per recipient. */
  take(): Mail[];
  /** While `refuse` is set, RCPT is answered with it (451: try again later); then accepted. */
  state: { refuse: number };
  /** Resolves with the first message to `to` (that `matches`, if given) once it has arrived. */
  waitFor(to: string, matches?: (raw: string) => boolean): Promise<Received>;
  close(): Promise<void>;
}

/** Quoted-printable soft breaks and =3D undone: enough to read words and links. */
const unquote = (raw: string): string => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

export async function startSmtp(): Promise<Inbox> {
  const messages: Received[] = [];
  const state = { refuse: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refuse) return callback(Object.assign(new Error('try again later'), { responseCode: state.refuse }));
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const mails = (): Mail[] => messages.flatMap((m) => m.to.map((to) => ({ to, raw: m.raw, text: unquote(m.raw) })));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get mails() {
      return mails();
    },
    take() {
      const taken = mails();
      messages.length = 0;
      return taken;
    },
    state,
    async waitFor(to, matches = () => true) {
      for (let i = 0; i < 100; i++) {
        const found = messages.find((m) => m.to.includes(to) && matches(m.raw));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no message to ${to} arrived`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first portal link in a message. */
export function portalLinkIn(raw: string): string | undefined {
  return /https?:\/\/\S+\/portal\/welcome#[\w-]+/.exec(unquote(raw))?.[0];
}

/**
 * The token of the first portal link e-mailed to `to`: other messages to the address (an
 * application's receipt, sent by the notifications in their own time) are passed over.
 */
export async function portalTokenFor(inbox: Inbox, to: string): Promise<string> {
  const link = portalLinkIn((await inbox.waitFor(to, (raw) => portalLinkIn(raw) !== undefined)).raw);
  return link?.split('#')[1] ?? '';
}

/** What a person reads of a message: its subject and each part, decoded (UTF-8, quoted-printable or base64). */
export interface Read {
  subject: string;
  text: string;
  html: string;
}

const qp = (body: string): string =>
  Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
const decodeBody = (headers: string, body: string): string =>
  /Content-Transfer-Encoding: base64/i.test(headers)
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : /Content-Transfer-Encoding: quoted-printable/i.test(headers)
      ? qp(body)
      : body;
/** RFC 2047 encoded words (=?UTF-8?Q?…?= or =?UTF-8?B?…?=), as nodemailer writes a subject that is not ASCII. */
const decodeWords = (value: string): string =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, how: string, text: string) =>
      how.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : qp(text.replace(/_/g, ' ')),
    );

export function read(raw: string): Read {
  const unfolded = raw.replace(/\r\n[ \t]+/g, ' ');
  const subject = decodeWords(/^Subject: (.*)$/m.exec(unfolded)?.[1] ?? '');
  const part = (type: string): string => {
    for (const chunk of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
      const [headers = '', ...body] = chunk.split(/\r?\n\r?\n/);
      if (new RegExp(`Content-Type: ${type}`, 'i').test(headers))
        return decodeBody(headers, body.join('\n\n').replace(/\r?\n--[^\r\n]*--\s*$/, ''));
    }
    return '';
  };
  return { subject, text: part('text/plain'), html: part('text/html') };
}

/** The subjects of the mail a collector sent to `to` since the inbox was last taken (its outbox sent first). */
export async function subjectsTo(c: { running: { work: { sendMail(): Promise<unknown> } } }, inbox: Inbox, to: string): Promise<string[]> {
  await c.running.work.sendMail();
  return inbox
    .take()
    .filter((m) => m.to === to)
    .map((m) => read(m.raw).subject);
}
