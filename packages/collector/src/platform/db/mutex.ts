// The SQLite driver's own lock, one per connection. better-sqlite3 is synchronous, but
// repositories await between statements. While a group-commit batch is open those
// awaits could let another request's statement run on the same connection and
// silently join the transaction, so the batch holds this lock and every statement from
// outside it waits until the batch ends. It is held only while the connection is in a
// transaction of ours: never while waiting for another process's lock (busy.ts).

export class Mutex {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  async acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the lock to the next waiter in order, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  /**
   * Runs `op` outside any batch. When the lock is free, at once and without taking it:
   * a synchronous statement cannot interleave with anything, and reads stay cheap.
   */
  async whenFree<T>(op: () => Promise<T>): Promise<T> {
    if (!this.held) return op();
    await this.acquire();
    try {
      return await op();
    } finally {
      this.release();
    }
  }
}
