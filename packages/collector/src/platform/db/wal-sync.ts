// Durability off the event loop. With synchronous=FULL, SQLite fsyncs the WAL inside
// COMMIT, and the whole process waits for the disk. Instead the connection runs with
// synchronous=NORMAL (a commit is written to the WAL, in the OS's cache, which survives
// kill -9), and this module fsyncs the WAL on libuv's thread pool. Nobody is answered
// from a commit until an fsync that began after it has finished, so a 2xx still means
// "on disk, survives power loss" (docs/api.md §21), while the event loop goes on
// building the next batch. One fsync covers every commit written before it began.
//
// After a failed fsync the kernel may have dropped the unwritten pages and a retry
// could falsely succeed, so every later write and read is refused (503) until a
// restart, as PostgreSQL does.

import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WalSync {
  /** Records a COMMIT that just returned; resolves to its sequence number. */
  committed(): number;
  /** The latest commit: anything read now may come from it. */
  latest(): number;
  /** Resolves once every commit up to `seq` is on disk; rejects if that cannot be known. */
  durable(seq: number): Promise<void>;
  close(): void;
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function walSync(dbPath: string, onFailure: (err: unknown) => unknown): WalSync {
  let committed = 0;
  let synced = 0;
  let running = false;
  let failed: unknown;
  let fd: number | undefined;
  let waiters: Waiter[] = [];

  const open = (): number => {
    if (fd === undefined) {
      fd = openSync(`${dbPath}-wal`, 'r');
      // The WAL's directory entry must be on disk too, once, or a power loss could lose the file.
      const dir = openSync(dirname(dbPath), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    }
    return fd;
  };

  const settle = (): void => {
    const waiting = waiters;
    waiters = [];
    for (const w of waiting) {
      if (failed !== undefined) w.reject(onFailure(failed));
      else if (w.seq <= synced) w.resolve();
      else waiters.push(w);
    }
  };

  const start = (): void => {
    if (running || failed !== undefined || synced >= committed) return;
    running = true;
    const target = committed;
    const done = (err: NodeJS.ErrnoException | null): void => {
      running = false;
      if (err) failed = err;
      else synced = target;
      settle();
      start(); // commits made while this fsync ran
    };
    try {
      fsync(open(), done);
    } catch (err) {
      done(err as NodeJS.ErrnoException);
    }
  };

  return {
    committed: () => ++committed,
    latest: () => committed,
    durable(seq) {
      if (failed !== undefined) return Promise.reject(onFailure(failed));
      if (seq <= synced) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        waiters.push({ seq, resolve, reject });
        start();
      });
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
