// Stripe's webhook, end to end (docs/stripe.md, "Fast"): signed `invoice.paid` events
// for a customer linked to a referral, each with its own event and invoice id, so each
// is verified, claimed, credited (a payment and its commission) and logged in its own
// transaction. One connection, so the latency is one event's whole time on the server,
// signature check and commit included, with no queue in front of it; and the server's
// CPU per event (processes.mjs, usage), which run.mjs sets beside the bare request's. A collector on
// SQLite, then one on PostgreSQL when a server is there. BENCH_SECONDS and BENCH_WARMUP
// as in run.mjs.

import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Stripe from 'stripe';
import { freshSchema, postgresReady } from './postgres.mjs';
import { peakRssMb, startCollector, stop, usage } from './processes.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
/** Stripe's own form: whsec_ and 32 random bytes in base64. */
const SECRET = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;

/** An event as Stripe posts it, and its Stripe-Signature header, signed now. */
function signed(type, object) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return { body: payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }) };
}

/** A paid invoice of the API since 2025-03-31 as a webhook carries it: no `payments`. */
function paidInvoice(customer) {
  const id = `in_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  return {
    id,
    object: 'invoice',
    status: 'paid',
    billing_reason: 'subscription_cycle',
    currency: 'usd',
    customer,
    customer_email: null,
    amount_due: 4_900,
    amount_paid: 4_900,
    amount_remaining: 0,
    total: 4_900,
    total_excluding_tax: 4_900,
    total_taxes: [],
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: 'sub_bench', metadata: {} } },
    status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
    metadata: {},
    livemode: false,
  };
}

/** A program connected to Stripe with a referral whose Stripe customer is linked: the webhook's URL and the customer. */
async function connected(c) {
  const headers = { authorization: `Bearer ${c.secret}`, 'content-type': 'application/json' };
  const post = async (path, body) => {
    const res = await fetch(`${c.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const partner = await post('/v1/partners', { name: 'Bench partner', email: 'partner@bench.test' });
  const partnership = await post('/v1/partnerships', { partner_id: partner.data.id, state: 'accepted' });
  const referral = await post('/v1/tracking/conversion', {
    email: 'buyer@bench.test',
    gr_id: 'g-stripe',
    pk: partnership.data.attributes.key,
  });
  const added = await post('/v1/integrations/stripe/secrets', { secret: SECRET, label: 'bench' });
  const url = c.url + new URL(added.meta.endpoint_url).pathname;
  const customer = 'cus_bench';
  const link = signed('customer.created', {
    id: customer,
    object: 'customer',
    email: null,
    metadata: { tally_referral_id: referral.data.id },
    livemode: false,
  });
  const linked = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': link.signature },
    body: link.body,
  });
  const outcome = (await linked.json()).data?.attributes?.outcome;
  if (outcome !== 'linked') throw new Error(`customer.created: ${linked.status} ${outcome}`);
  return { url, customer };
}

/** Resolves to autocannon's result and how many answers were 2xx without crediting. */
function cannon(url, customer, duration) {
  let uncredited = 0;
  const request = {
    method: 'POST',
    setupRequest(req) {
      const { body, signature } = signed('invoice.paid', paidInvoice(customer));
      return { ...req, body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
    },
    // A 200 that credited nothing (a duplicate, an ignored event) would measure less work.
    onResponse(status, body) {
      if (status === 200 && JSON.parse(body).data.attributes.outcome !== 'credited') uncredited++;
    },
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections: 1, duration, requests: [request] }, (err, result) =>
      err ? reject(err) : resolve({ ...result, uncredited }),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

async function stripeRow(name, databaseUrl, work) {
  const c = await startCollector(databaseUrl, join(work, `stripe-${name.includes('PostgreSQL') ? 'pg' : 'sqlite'}.log`));
  try {
    const { url, customer } = await connected(c);
    if (WARMUP > 0) await cannon(url, customer, WARMUP);
    const used = usage([c.child.pid]);
    const r = await cannon(url, customer, SECONDS);
    const { cpuUsPerReq, machineBusy } = used(r.requests.total);
    const failed = r.non2xx + r.errors + r.timeouts + r.uncredited;
    if (failed > 0)
      throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts, ${r.uncredited} not credited`);
    const row = {
      name,
      reqPerSec: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      peakRssMb: peakRssMb(c.child.pid),
      cpuUsPerReq,
      machineBusy,
      requests: r.requests.total,
      failed,
    };
    console.log(
      `${name.padEnd(64)} ${String(row.reqPerSec).padStart(7)} req/s  p50 ${String(row.p50).padStart(3)} ms  p99 ${String(row.p99).padStart(3)} ms  RSS ${row.peakRssMb} MB  CPU ${row.cpuUsPerReq} µs/req  machine ${row.machineBusy}% busy`,
    );
    return row;
  } finally {
    await stop(c.child);
  }
}

/** The rows: the webhook on SQLite, and on PostgreSQL when a server is there. */
export async function stripeRows(work, wanted) {
  const names = ['stripe: POST invoice.paid (SQLite)', 'stripe: POST invoice.paid (PostgreSQL)'];
  const rows = [];
  if (wanted(names[0])) rows.push(await stripeRow(names[0], join(work, 'stripe.db'), work));
  if (wanted(names[1]) && (await postgresReady())) {
    const schema = await freshSchema();
    try {
      rows.push(await stripeRow(names[1], schema.url, work));
    } finally {
      await schema.drop();
    }
  }
  return rows;
}
