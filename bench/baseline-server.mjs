// The bare stack the collector is measured against: node:http, JSON.parse and one
// better-sqlite3 insert per request, in WAL, with synchronous=FULL (one fsync per
// request, the same durability as the collector) or OFF (no fsync: the stack's ceiling).
// Usage: node bench/baseline-server.mjs DB_PATH full|off; prints "listening PORT".

import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const [dbPath, sync] = process.argv.slice(2);
if (!dbPath || !['full', 'off'].includes(sync ?? '')) {
  console.error('usage: baseline-server.mjs DB_PATH full|off');
  process.exit(2);
}
const db = new Database(dbPath);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'OFF'}`);
db.exec(`CREATE TABLE IF NOT EXISTS conversions (
  id TEXT PRIMARY KEY, email TEXT NOT NULL, gr_id TEXT NOT NULL, pk TEXT, created_at INTEGER NOT NULL)`);
const insert = db.prepare('INSERT INTO conversions (id, email, gr_id, pk, created_at) VALUES (?, ?, ?, ?, ?)');

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const id = randomUUID();
    insert.run(id, String(body.email), String(body.gr_id), body.pk ?? null, Math.floor(Date.now() / 1000));
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id } }));
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => (db.close(), process.exit(0))));
