// Webhook delivery throughput: EVENTS events committed at once (one transaction, as a
// burst of changes would), then the time until a local receiver that answers 200 at once
// has them all. One process on SQLite, one and two on PostgreSQL: the same database work
// and signatures, only the delivering processes differ.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { openDatabase } from '../packages/collector/dist/index.js';
import { freshSchema, postgresReady } from './postgres.mjs';
import { startCollector, stop } from './processes.mjs';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5000);
const LOCAL = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' };

function receiver() {
  const seen = new Set();
  let waiting;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.add(req.headers['webhook-id']);
      res.writeHead(200).end();
      if (waiting && seen.size >= waiting.count) waiting.resolve();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/bench`,
        all: (count) => new Promise((done) => (seen.size >= count ? done() : (waiting = { count, resolve: done }))),
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

/** The events and their deliveries, written as the outbox writes them, in one transaction. */
async function burst(databaseUrl, endpointId) {
  const db = await openDatabase(databaseUrl);
  try {
    const program = await db.get('SELECT program_id FROM webhook_endpoints WHERE id = ?', [endpointId]);
    const now = Math.floor(Date.now() / 1000);
    await db.transaction(async (tx) => {
      for (let i = 0; i < EVENTS; i++) {
        const id = randomUUID();
        const data = JSON.stringify({ id: randomUUID(), type: 'referral', attributes: { state: 'converted', created_at: now } });
        await tx.run('INSERT INTO events (id, program_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)', [
          id,
          program.program_id,
          'referral.created',
          data,
          now,
        ]);
        await tx.run(
          `INSERT INTO webhook_deliveries (id, program_id, endpoint_id, event_id, event_type, state, attempts, next_attempt_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'referral.created', 'pending', 0, ?, ?, ?)`,
          [randomUUID(), program.program_id, endpointId, id, now, now, now],
        );
      }
    });
  } finally {
    await db.close();
  }
}

async function deliveryRow(name, databaseUrl, processes, work) {
  const r = await receiver();
  const collectors = await Promise.all(
    Array.from({ length: processes }, (_, k) => startCollector(databaseUrl, join(work, `webhooks-${processes}-${k}.log`), [], LOCAL)),
  );
  try {
    const first = collectors.find((c) => c.secret);
    const made = await fetch(`${first.url}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: r.url }),
    }).then((res) => res.json());
    await burst(databaseUrl, made.data.id);
    const started = performance.now();
    await r.all(EVENTS);
    const seconds = (performance.now() - started) / 1000;
    const row = { name, events: EVENTS, seconds: Math.round(seconds * 100) / 100, eventsPerSec: Math.round(EVENTS / seconds) };
    console.log(`${name.padEnd(58)} ${String(row.eventsPerSec).padStart(7)} events/s (${EVENTS} in ${row.seconds} s)`);
    return row;
  } finally {
    await Promise.all(collectors.map((c) => stop(c.child)));
    await r.close();
  }
}

/** The rows: SQLite ×1, PostgreSQL ×1 and ×2 (when a server is there). */
export async function webhookRows(work, wanted) {
  const rows = [];
  const names = [
    'webhooks: delivered/s, collector ×1 (SQLite)',
    'webhooks: delivered/s, collector-pg ×1',
    'webhooks: delivered/s, collector-pg ×2',
  ];
  if (wanted(names[0])) rows.push(await deliveryRow(names[0], join(work, 'webhooks.db'), 1, work));
  if ((wanted(names[1]) || wanted(names[2])) && (await postgresReady())) {
    for (const [i, n] of [
      [1, 1],
      [2, 2],
    ]) {
      if (!wanted(names[i])) continue;
      const schema = await freshSchema();
      try {
        rows.push(await deliveryRow(names[i], schema.url, n, work));
      } finally {
        await schema.drop();
      }
    }
  }
  return rows;
}
