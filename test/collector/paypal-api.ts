// PayPal's Payouts API as a local server, as its reference documents it: OAuth2 client
// credentials, one batch per sender_batch_id (a duplicate refused with a link to the
// original), 429 rate limits, the batch read back, and webhooks signed with a certificate it
// serves (made with openssl). The payout runs' tests share it.

import { execFileSync } from 'node:child_process';
import { createSign, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32 } from '../../packages/collector/src/modules/payout-runs/paypal.js';
import { type Held, holder } from './held.js';

export const CLIENT = { id: 'AZ-test-client', secret: 'EL-test-secret' };
export const WEBHOOK_ID = '8PT597110X687430LKGECATA';

export interface FakeItem {
  payout_item_id: string;
  transaction_status: string;
  payout_batch_id: string;
  payout_item: { sender_item_id: string; receiver: string; amount: { value: string; currency: string } };
  errors?: { name: string; message: string };
  payout_item_fee?: { currency: string; value: string };
}

/** PayPal as its Payouts and webhooks references describe it, for one REST app. */
export class FakePaypal {
  server!: Server;
  url = '';
  /** By sender_batch_id: each batch PayPal took, once. */
  batches = new Map<string, { id: string; items: FakeItem[] }>();
  posts: { senderBatchId: string; receivers: string[]; status: number }[] = [];
  /** What an item sent to a receiver becomes: SUCCESS unless named here. */
  outcome = new Map<string, string>();
  /** PayPal's fee per item (`payout_item_fee`), in the item's currency: none unless set. */
  itemFee: string | undefined;
  /** Answers of the next payouts POSTs that are 429 first. */
  rateLimited = 0;
  /** The next POST takes the batch and then fails to answer (a 500): the answer lost. */
  loseAnswer = false;
  /**
   * Called when a POST took its batch instead of answering it: the answer never leaves (a crash
   * test kills the caller), or, when it returns a promise, leaves once that resolves.
   */
  holdAnswer: (() => void | Promise<void>) | undefined;
  tokens = 0;
  private key = '';
  private cert = '';

  constructor(private dir: string) {}

  async start(): Promise<void> {
    const keyFile = join(this.dir, 'key.pem');
    const certFile = join(this.dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=fake-paypal'],
      {
        stdio: 'ignore',
      },
    );
    this.key = readFileSync(keyFile, 'utf8');
    this.cert = readFileSync(certFile, 'utf8');
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const path = req.url ?? '';
    if (path === '/v1/notifications/certs/CERT-fake') {
      res.writeHead(200, { 'Content-Type': 'application/x-pem-file' });
      return void res.end(this.cert);
    }
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      const basic = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`;
      if (req.headers.authorization !== basic || raw !== 'grant_type=client_credentials') {
        return send(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      }
      this.tokens++;
      return send(200, {
        scope: 'https://uri.paypal.com/payments/payouts',
        access_token: 'A21-fake-token',
        token_type: 'Bearer',
        expires_in: 32400,
      });
    }
    if (req.headers.authorization !== 'Bearer A21-fake-token') {
      return send(401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials.' });
    }
    if (req.method === 'POST' && path === '/v1/payments/payouts') {
      const body = JSON.parse(raw);
      const senderBatchId: string = body.sender_batch_header.sender_batch_id;
      const receivers = body.items.map((i: { receiver: string }) => i.receiver);
      if (this.rateLimited > 0) {
        this.rateLimited--;
        this.posts.push({ senderBatchId, receivers, status: 429 });
        return send(
          429,
          { name: 'RATE_LIMIT_REACHED', message: 'Too many requests. Blocked due to rate limiting.' },
          { 'Retry-After': '0' },
        );
      }
      const seen = this.batches.get(senderBatchId);
      if (seen) {
        this.posts.push({ senderBatchId, receivers, status: 400 });
        return send(400, {
          name: 'USER_BUSINESS_ERROR',
          message: 'User business error.',
          debug_id: randomUUID(),
          details: [
            {
              field: 'SENDER_BATCH_ID',
              value: senderBatchId,
              location: 'body',
              issue: 'SENDER_BATCH_ID_ALREADY_USED',
              description: 'Batch with given sender_batch_id already exists',
            },
          ],
          links: [{ href: `${this.url}/v1/payments/payouts/${seen.id}`, rel: 'self', method: 'GET', encType: 'application/json' }],
        });
      }
      const id = `BATCH${this.batches.size + 1}`;
      const items: FakeItem[] = body.items.map(
        (i: { receiver: string; amount: { value: string; currency: string }; sender_item_id: string }, n: number) => {
          const status = this.outcome.get(i.receiver) ?? 'SUCCESS';
          return {
            payout_item_id: `${id}ITEM${n + 1}`,
            transaction_status: status,
            payout_batch_id: id,
            payout_item: { sender_item_id: i.sender_item_id, receiver: i.receiver, amount: i.amount },
            ...(this.itemFee === undefined ? {} : { payout_item_fee: { currency: i.amount.currency, value: this.itemFee } }),
            ...(status === 'FAILED'
              ? { errors: { name: 'RECEIVER_ACCOUNT_LOCKED', message: 'Receiver account is locked or inactive' } }
              : {}),
          };
        },
      );
      this.batches.set(senderBatchId, { id, items });
      this.posts.push({ senderBatchId, receivers, status: 201 });
      if (this.holdAnswer) {
        const released = this.holdAnswer();
        this.holdAnswer = undefined;
        if (!released) return;
        await released;
      }
      if (this.loseAnswer) {
        this.loseAnswer = false;
        return send(500, { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.' });
      }
      return send(201, { batch_header: { payout_batch_id: id, batch_status: 'PENDING', sender_batch_header: body.sender_batch_header } });
    }
    const read = /^\/v1\/payments\/payouts\/([^/?]+)/.exec(path);
    if (req.method === 'GET' && read) {
      const batch = [...this.batches.values()].find((b) => b.id === read[1]);
      if (!batch) return send(404, { name: 'INVALID_RESOURCE_ID', message: 'The requested resource ID was not found' });
      return send(200, { batch_header: { payout_batch_id: batch.id, batch_status: 'SUCCESS' }, items: batch.items });
    }
    send(404, { name: 'NOT_FOUND', message: path });
  }

  /** The next POST takes its batch, then its answer waits for release() (holdAnswer with a promise). */
  hold(): Held {
    const holds = holder();
    const held = holds.hold('');
    this.holdAnswer = () => holds.wait('');
    return held;
  }

  /** An item of a batch PayPal took, by our item id (its sender_item_id). */
  item(senderItemId: string): FakeItem {
    for (const b of this.batches.values()) {
      const found = b.items.find((i) => i.payout_item.sender_item_id === senderItemId);
      if (found) return found;
    }
    throw new Error(`PayPal has no item ${senderItemId}`);
  }

  /** A webhook event about the item, signed as PayPal signs (certUrl: where the headers say its certificate is). */
  webhook(type: string, item: FakeItem, opts: { certUrl?: string; eventId?: string } = {}) {
    const raw = JSON.stringify({
      id: opts.eventId ?? `WH-${randomUUID()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: 'payouts_item',
      event_type: type,
      resource: item,
    });
    const id = randomUUID();
    const time = new Date().toISOString();
    const sig = createSign('sha256')
      .update(`${id}|${time}|${WEBHOOK_ID}|${crc32(Buffer.from(raw))}`)
      .sign(this.key, 'base64');
    const headers = {
      'content-type': 'application/json',
      'paypal-transmission-id': id,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': sig,
      'paypal-cert-url': opts.certUrl ?? `${this.url}/v1/notifications/certs/CERT-fake`,
      'paypal-auth-algo': 'SHA256withRSA',
    };
    return { raw, headers };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}
