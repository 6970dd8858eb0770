// Reading another platform's REST API: JSON over Node's fetch, with the waits and retries
// their documentation asks for. 429: wait as long as Retry-After (or RateLimit-Reset) says,
// never longer than `maxWaitMs`; a 5xx or a dropped connection: a few tries with a growing
// pause; 401/403: stop and name the option that gave the key, never the key itself; a
// redirect: stop, as webhooks do (platform/outbound.ts).

import { redirectNotFollowed, retryAfterSeconds } from '../../platform/outbound.js';

export class ImportError extends Error {}

/** A file the import cannot read as it is (not UTF-8, a column missing): running again needs it fixed first. */
export class FileRefused extends ImportError {}

export interface ClientOptions {
  /** "Rewardful", for messages. */
  platform: string;
  baseUrl: string;
  headers: Record<string, string>;
  /** The option that gave the credentials, named when they are refused: "--api-key". */
  keyOption: string;
  /** The longest wait between two tries, in milliseconds. */
  maxWaitMs: number;
}

/** Tries after a 5xx or a network failure, and after 429s in a row, before giving up. */
const SERVER_TRIES = 4;
const RATE_TRIES = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait a 429 asks for, in ms: Retry-After (seconds or a date), else RateLimit-Reset (seconds), else undefined. */
function askedWait(headers: Headers): number | undefined {
  const secs =
    retryAfterSeconds(headers.get('retry-after') ?? undefined, Date.now()) ?? Number(headers.get('ratelimit-reset') ?? Number.NaN);
  return Number.isFinite(secs) ? Math.max(0, secs * 1000) : undefined;
}

/** The platform's own words for a refusal, short: its `error`, `message` or `error.message`. */
async function reason(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const said =
      typeof body.error === 'object' && body.error !== null ? (body.error as { message?: unknown }).message : (body.error ?? body.message);
    if (typeof said === 'string') return said.slice(0, 200);
  } catch {
    // not JSON: the status says enough
  }
  return res.statusText || 'no detail';
}

/** GET `path` with `query` from the API; resolves to the parsed JSON body. */
export async function getJson(options: ClientOptions, path: string, query: Record<string, string | number> = {}): Promise<unknown> {
  const url = new URL(options.baseUrl.replace(/\/$/, '') + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.append(k, String(v));
  const shown = `${options.platform} (GET ${url.pathname})`;
  let serverFailures = 0;
  let rateLimited = 0;
  for (;;) {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', ...options.headers },
        // Followed, a redirect could take the key to another host, or the import into this network.
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      if (++serverFailures >= SERVER_TRIES) throw new ImportError(`cannot reach ${shown}: ${(err as Error).message}`);
      await sleep(Math.min(options.maxWaitMs, 500 * 2 ** serverFailures));
      continue;
    }
    if (res.ok) return res.json();
    const redirect = redirectNotFollowed(res.status, res.headers.get('location'), url);
    if (redirect) {
      await res.body?.cancel();
      throw new ImportError(`${shown} answered with ${redirect}; if the API moved, give its new address with --base-url`);
    }
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      throw new ImportError(
        `${options.platform} refused the key given with ${options.keyOption} (${res.status}); check that it is the account's API key`,
      );
    }
    if (res.status === 429) {
      const wait = askedWait(res.headers) ?? 1000 * 2 ** rateLimited;
      await res.body?.cancel();
      if (++rateLimited >= RATE_TRIES) throw new ImportError(`${shown} kept answering 429 Too Many Requests; run the import again later`);
      await sleep(Math.min(options.maxWaitMs, wait));
      continue;
    }
    if (res.status >= 500) {
      const said = await reason(res);
      if (++serverFailures >= SERVER_TRIES) throw new ImportError(`${shown} failed ${SERVER_TRIES} times (${res.status}: ${said})`);
      await sleep(Math.min(options.maxWaitMs, 500 * 2 ** serverFailures));
      continue;
    }
    throw new ImportError(`${shown} answered ${res.status}: ${await reason(res)}`);
  }
}
