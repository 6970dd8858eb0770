// Your endpoint for Tally's webhooks (Settings → Webhooks): the signature checked on the raw
// body, then each event handled once, since the same event may come twice.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@tally/client';

// During a rotation, give both: the new secret and the old, separated by a space.
const secrets = process.env.TALLY_WEBHOOK_SECRET!.split(' ');
const handled = new Set<string>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(Buffer.concat(chunks), req.headers, secrets);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      res.writeHead(400).end();
      return;
    }
    if (!handled.has(event.id)) {
      handled.add(event.id);
      console.log(event.type, event.data.id);
    }
    res.writeHead(200).end();
  });
});
server.listen(Number(process.env.PORT ?? 3000), () => console.log('listening on', (server.address() as AddressInfo).port));
