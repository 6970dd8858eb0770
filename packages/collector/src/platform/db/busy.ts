// Waiting for another process's lock without stopping the event loop. Another process
// (the CLI, a backup) may hold SQLite's write lock. SQLite's own wait for it
// (busy_timeout) sleeps in the calling thread, which here is the event loop: a 5 s
// wait froze every request, health checks included. So SQLite waits only SPIN_MS per
// try, and between tries the caller waits on a timer, with none of the driver's locks
// held, so everything else (reads, which on WAL never need the write lock) goes on.

/** SQLite's own wait for a lock, per try (busy_timeout): it stops the event loop, so only a few ms. */
export const SPIN_MS = 2;

/** Another connection (another process) holds a lock this statement needs: worth another try. */
export const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The waits between tries: doubling from 2 ms, so a lock held for a moment costs
 * little, up to 50 ms, so a lock held for seconds costs a try (SPIN_MS of stopped loop)
 * only 20 times a second and is noticed within 50 ms of its release.
 */
export function* backoff(): Generator<number, never> {
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) yield delay;
}

/**
 * Tries `attempt` until it does not fail with SQLITE_BUSY, waiting on timers between
 * tries, for at most `limitMs`; then its last error is thrown, as is any other error.
 */
export async function whileBusy<T>(attempt: () => Promise<T>, limitMs: number): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (const delay of backoff()) {
    try {
      return await attempt();
    } catch (err) {
      const left = deadline - Date.now();
      if (!isBusy(err) || left <= 0) throw err;
      await sleep(Math.min(delay, left));
    }
  }
  throw new Error('unreachable'); // backoff() never ends
}
