// Issue 35, part 3: on PostgreSQL, clicks become a table partitioned by RANGE of
// created_at (Unix seconds), one partition per UTC month, named clicks_YYYY_MM, plus a
// DEFAULT partition that keeps a click whose month has no partition yet (the collector
// makes the months ahead of time and moves such strays into their month:
// modules/clicks/partitions.ts; decision 0283). Old months are then dropped whole when
// CLICK_RETENTION_MONTHS says so, instead of deleted row by row.
//
// A unique key of a partitioned table must hold the partition key: the primary key is
// (program_id, id, created_at), tenant first as the other indexes (a click is always
// looked up within its program). Nothing references clicks by a foreign key; clicks keep
// theirs to partnerships, whose cascade the partnership-led index serves. The rows are
// copied over into a partition per month they fall in; a fresh database gets only the
// DEFAULT partition here. SQLite keeps its plain table: the same rows, keys and answers,
// and there CLICK_RETENTION_MONTHS deletes old rows in batches.

import type { Migration } from './migration.js';

const migration: Migration = {
  sqlite: '',
  postgres: [
    'ALTER TABLE clicks RENAME TO clicks_unpartitioned',
    'ALTER TABLE clicks_unpartitioned DROP CONSTRAINT clicks_pkey',
    'ALTER TABLE clicks_unpartitioned DROP CONSTRAINT clicks_partnership_id_fkey',
    'DROP INDEX clicks_gr_id',
    'DROP INDEX clicks_list',
    'DROP INDEX clicks_partnership',
    `CREATE TABLE clicks (
       id TEXT NOT NULL,
       program_id TEXT NOT NULL,
       partnership_id TEXT NOT NULL REFERENCES partnerships(id) ON DELETE CASCADE,
       gr_id TEXT NOT NULL,
       pk TEXT NOT NULL,
       url TEXT,
       referrer TEXT,
       created_at BIGINT NOT NULL,
       last_seen_at BIGINT NOT NULL,
       CONSTRAINT clicks_pkey PRIMARY KEY (program_id, id, created_at)
     ) PARTITION BY RANGE (created_at)`,
    'CREATE INDEX clicks_gr_id ON clicks (program_id, gr_id, last_seen_at DESC)',
    'CREATE INDEX clicks_list ON clicks (program_id, created_at DESC, id DESC)',
    'CREATE INDEX clicks_partnership ON clicks (partnership_id, program_id, created_at DESC, id DESC)',
    'CREATE TABLE clicks_default PARTITION OF clicks DEFAULT',
    // One partition per UTC month the old rows fall in, named as the collector names them.
    `DO $$
     DECLARE
       m TIMESTAMP;
     BEGIN
       FOR m IN SELECT DISTINCT date_trunc('month', to_timestamp(created_at) AT TIME ZONE 'UTC') FROM clicks_unpartitioned LOOP
         EXECUTE format('CREATE TABLE %I PARTITION OF clicks FOR VALUES FROM (%s) TO (%s)',
           'clicks_' || to_char(m, 'YYYY_MM'),
           extract(epoch FROM m)::BIGINT,
           extract(epoch FROM m + INTERVAL '1 month')::BIGINT);
       END LOOP;
     END
     $$`,
    `INSERT INTO clicks (id, program_id, partnership_id, gr_id, pk, url, referrer, created_at, last_seen_at)
     SELECT id, program_id, partnership_id, gr_id, pk, url, referrer, created_at, last_seen_at FROM clicks_unpartitioned`,
    'DROP TABLE clicks_unpartitioned',
  ],
};

export default migration;
