// The bare stack the collector is measured against: node:http, JSON.parse and one
// insert per request, nothing else.
// - sqlite PATH full|off|group: better-sqlite3 in WAL, with synchronous=FULL (one fsync per
//   request, the same durability as the collector), OFF (no fsync: the stack's ceiling), or
//   group: the collector's own way to durability, the inserts that arrive together in one
//   transaction and one fsync of the WAL on the thread pool before any of them is answered;
// - postgres URL: a pg pool of 10 and one autocommitted insert, durable as the collector's.
// Prints "listening PORT".

import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const TABLE = `CREATE TABLE IF NOT EXISTS conversions (
  id TEXT PRIMARY KEY, email TEXT NOT NULL, gr_id TEXT NOT NULL, pk TEXT, created_at BIGINT NOT NULL)`;

/** Resolves to insert(row) and close() for the engine named on the command line. */
async function open([engine, target, sync]) {
  if (engine === 'sqlite' && target && sync === 'group') return groupCommitted(target);
  if (engine === 'sqlite' && target && ['full', 'off'].includes(sync ?? '')) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(target);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'OFF'}`);
    db.exec(TABLE);
    const insert = db.prepare('INSERT INTO conversions (id, email, gr_id, pk, created_at) VALUES (?, ?, ?, ?, ?)');
    return { insert: async (row) => insert.run(...row), close: async () => db.close() };
  }
  if (engine === 'postgres' && target) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: target, max: 10 });
    await pool.query(TABLE);
    const text = 'INSERT INTO conversions (id, email, gr_id, pk, created_at) VALUES ($1, $2, $3, $4, $5)';
    return { insert: (row) => pool.query({ name: 'insert', text, values: row }), close: () => pool.end() };
  }
  console.error('usage: baseline-server.mjs sqlite DB_PATH full|off|group | postgres URL');
  process.exit(2);
}

/** One insert per request, committed with whatever else arrived in the same turn, answered after one fsync. */
async function groupCommitted(target) {
  const { default: Database } = await import('better-sqlite3');
  const { open: openFile, fsync, close } = await import('node:fs');
  const db = new Database(target);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(TABLE);
  const insert = db.prepare('INSERT INTO conversions (id, email, gr_id, pk, created_at) VALUES (?, ?, ?, ?, ?)');
  const wal = await new Promise((resolve, reject) => openFile(`${target}-wal`, 'r', (err, fd) => (err ? reject(err) : resolve(fd))));
  let queue = [];
  const commit = () => {
    const batch = queue;
    queue = [];
    db.exec('BEGIN IMMEDIATE');
    for (const item of batch) insert.run(...item.row);
    db.exec('COMMIT');
    fsync(wal, (err) => batch.forEach((item) => (err ? item.reject(err) : item.resolve())));
  };
  return {
    insert: (row) =>
      new Promise((resolve, reject) => {
        if (queue.push({ row, resolve, reject }) === 1) setImmediate(commit);
      }),
    close: async () => (close(wal, () => {}), db.close()),
  };
}

const db = await open(process.argv.slice(2));
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const id = randomUUID();
    try {
      await db.insert([id, String(body.email), String(body.gr_id), body.pk ?? null, Math.floor(Date.now() / 1000)]);
    } catch {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id } }));
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(async () => (await db.close(), process.exit(0))));
