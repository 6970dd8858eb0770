// A real SMTP server for the tests (the smtp-server package) on a free port: it keeps
// every message it receives, so a test reads a link out of the mail as a person would.

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  raw: string;
}

export interface Inbox {
  url: string;
  messages: Received[];
  /** Resolves with the first message to `to` (that `matches`, if given) once it has arrived. */
  waitFor(to: string, matches?: (raw: string) => boolean): Promise<Received>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<Inbox> {
  const messages: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
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
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
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

/** The first portal link in a message (quoted-printable soft breaks undone). */
export function portalLinkIn(raw: string): string | undefined {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /https?:\/\/\S+\/portal\/welcome#[\w-]+/.exec(text)?.[0];
}
