// A write is answered only after the WAL is on disk, and so is a read that saw it. The
// disk is the outside world here: fs.fsync is held back or failed to show the order.

import fs, { mkdtempSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ServiceError } from '../../packages/collector/src/platform/errors.js';
import type { Db } from '../../packages/collector/src/platform/db/db.js';
import { openSqlite } from '../../packages/collector/src/platform/db/sqlite.js';

type Callback = (err: NodeJS.ErrnoException | null) => void;
const realFsync = fs.fsync;
let held: Array<{ fd: number; cb: Callback }> = [];
let failWith: NodeJS.ErrnoException | undefined;

let dir: string;
let db: Db;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tally-durable-'));
  db = openSqlite(join(dir, 'd.db'));
  await db.run('CREATE TABLE t (k TEXT PRIMARY KEY)');
  // From here on every fsync waits until the test lets it go, or fails.
  (fs as { fsync: unknown }).fsync = (fd: number, cb: Callback) => {
    if (failWith) return queueMicrotask(() => cb(failWith ?? null));
    held.push({ fd, cb });
  };
  syncBuiltinESMExports();
});
afterEach(async () => {
  failWith = undefined;
  letGo();
  (fs as { fsync: unknown }).fsync = realFsync;
  syncBuiltinESMExports();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

function letGo(): void {
  const now = held;
  held = [];
  for (const { fd, cb } of now) realFsync(fd, cb);
}

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 30));
  return done;
};

it('a committed write is not answered until its fsync finishes, nor is a read that saw it', async () => {
  const write = db.run('INSERT INTO t (k) VALUES (?)', ['a']);
  expect(await settled(write)).toBe(false);
  expect(held.length).toBe(1); // the commit happened; its fsync is running

  const read = db.get<{ k: string }>('SELECT k FROM t WHERE k = ?', ['a']);
  expect(await settled(read)).toBe(false);

  letGo();
  await expect(write).resolves.toBe(1);
  await expect(read).resolves.toEqual({ k: 'a' });
});

it('the next batch commits while an fsync runs, and one later fsync covers it', async () => {
  const first = db.run('INSERT INTO t (k) VALUES (?)', ['a']);
  expect(await settled(first)).toBe(false);
  const second = db.run('INSERT INTO t (k) VALUES (?)', ['b']);
  expect(await settled(second)).toBe(false);
  expect(held.length).toBe(1); // b is committed, and waits for an fsync that begins after it
  letGo();
  await expect(first).resolves.toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(held.length).toBe(1);
  letGo();
  await expect(second).resolves.toBe(1);
});

it('after a failed fsync every write and read gets 503 (a retry could falsely succeed)', async () => {
  failWith = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
  const write = db.run('INSERT INTO t (k) VALUES (?)', ['a']);
  await expect(write).rejects.toBeInstanceOf(ServiceError);
  await expect(write).rejects.toMatchObject({ code: 'unavailable' });
  failWith = undefined;
  await expect(db.run('INSERT INTO t (k) VALUES (?)', ['b'])).rejects.toMatchObject({ code: 'unavailable' });
  await expect(db.get('SELECT k FROM t')).rejects.toMatchObject({ code: 'unavailable' });
});
