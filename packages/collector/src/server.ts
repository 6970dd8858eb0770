// One running collector: open and migrate the database, make the first program on an
// empty one, listen (with caps on connections and timeouts on slow clients), and on
// SIGTERM stop accepting, finish what is in flight, then close the database.

import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { demoEnabled, publicUrlOf, urlHost, type Config } from './platform/config.js';
import { describeCause } from './platform/errors.js';
import { answerClientErrors } from './platform/http/client-errors.js';
import { guardConnections, NO_CAPS, serverOptions } from './platform/http/connections.js';
import { firstOwnerLink, linkPath } from './modules/owners/service.js';
import { foldStats, keepWindows } from './modules/stats/service.js';
import { purgeClicks, startClickPurge } from './modules/clicks/purge.js';
import { maintainClicks, type ClickMaintenance } from './modules/clicks/partitions.js';
import { startDelivery } from './modules/webhooks/deliver.js';
import { DEFAULT_OUTBOUND, postJson, type OutboundPolicy } from './platform/outbound.js';
import { demoToken, ensureFirstProgram } from './flows/program.js';
import type { CreatedProgram } from './modules/programs/service.js';
import type { Db } from './platform/db/db.js';
import { openMigrated } from './platform/db/open.js';
import { errorObject } from './platform/http/errors.js';
import { createMailer } from './platform/mail.js';
import { composers } from './flows/mail-messages.js';
import { startOutbox, type OutboxSender } from './modules/mail/outbox.js';
import { pruneNotifications, startNotifications } from './flows/notification-sender.js';
import { purgeExpiredAccess } from './flows/purge.js';
import { AUDIT_RETENTION_DAYS, purgeAudit } from './modules/audit/service.js';
import { usePasswordCost } from './modules/identity/passwords.js';
import { payClickRewards } from './flows/click-rewards.js';
import { runPayoutSchedules, type ScheduledRun } from './flows/payout-schedule.js';
import { sendDueBroadcasts } from './modules/messages/service.js';
import { SECURITY_HEADERS } from './platform/http/security-headers.js';

export interface RunningServer {
  url: string;
  db: Db;
  server: Server;
  /** Set only when this start made the first program: its tokens are shown once. */
  firstProgram: CreatedProgram | undefined;
  /** With the first program: the one-time link (24 h) that lets its first owner sign in. */
  firstSignInLink: string | undefined;
  /** Sends the e-mail outbox, when SMTP is configured. */
  outbox: OutboxSender | undefined;
  /** The background work, run now: what a server with `background: false` does only when asked. */
  work: {
    deliver(): Promise<void>;
    fold(): Promise<void>;
    sendMail(): Promise<void>;
    purge(): Promise<void>;
    /** Pays the click rewards of the days that ended (modules/rewards/clicks.ts). */
    payClicks(): Promise<number>;
    /** Makes the payout runs of the schedules whose period began (flows/payout-schedule.ts). */
    payoutSchedules(): Promise<ScheduledRun[]>;
    /** Clicks' months made ahead, and CLICK_RETENTION_MONTHS applied (modules/clicks/partitions.ts). */
    maintainClicks(): Promise<ClickMaintenance>;
    /** Delivers the scheduled broadcasts that are due (modules/messages). */
    sendBroadcasts(): Promise<number>;
  };
  close(): Promise<void>;
}

const unixNow = (): number => Math.floor(Date.now() / 1000);
/** How often the statistics' deltas are folded into their buckets. */
const FOLD_EVERY_MS = 1000;
/** How often expired sessions, links and invitations are deleted. */
const PURGE_EVERY_MS = 3600_000;
/** How often the payout schedules are looked at; each period is made once by its key. */
const SCHEDULE_EVERY_MS = 600_000;
/** How often scheduled broadcasts are looked for: one goes out within a minute of its time. */
const BROADCASTS_EVERY_MS = 60_000;

/** The database of a configuration, opened and migrated. */
export function openConfigured(
  config: Pick<Config, 'databaseUrl' | 'databaseDirectUrl' | 'databaseReplicaUrl' | 'pgPoolSize' | 'dbMaxQueued'>,
  now: number,
  log?: Logger,
): Promise<Db> {
  return openMigrated(config.databaseUrl, now, {
    directUrl: config.databaseDirectUrl,
    replicaUrl: config.databaseReplicaUrl,
    poolSize: config.pgPoolSize,
    maxQueued: config.dbMaxQueued,
    onIdleError: (err) => log?.warn({ cause: describeCause(err) }, 'a database connection broke; the next query opens another'),
  });
}

export interface ServerOptions {
  /** Unix seconds; tests pin it to place records at exact times. */
  now?: () => number;
  /** Over the configuration's: tests give a DNS whose answers change. */
  outbound?: Partial<OutboundPolicy> | undefined;
  /** How often the webhook loop looks for due deliveries; 500 ms unless given. */
  webhookPollMs?: number | undefined;
  /** The factor around 1 that spreads retries (random, ±20 %); a test pins it to shorten a real-time wait. */
  webhookJitter?: (() => number) | undefined;
  /** How often the statistics' deltas are folded; every second unless given. */
  foldEveryMs?: number | undefined;
  /** How often the e-mail outbox is looked at besides when a request writes to it; every second unless given. */
  mailPollMs?: number | undefined;
  /**
   * False: no timer runs (webhook delivery, the statistics' fold, purges, the mail poll, payout schedules);
   * the work runs when `work` is called, and mail a request writes is still sent at once.
   * Tests turn it off, so that nothing happens that they did not ask for.
   */
  background?: boolean | undefined;
}

/** Runs `fn` every `ms` while the server runs, when background work is on. */
function repeat(on: boolean, ms: number, fn: () => unknown): NodeJS.Timeout | undefined {
  if (!on) return undefined;
  const timer = setInterval(fn, ms);
  timer.unref();
  return timer;
}

export async function startServer(config: Config, log: Logger, options: ServerOptions = {}): Promise<RunningServer> {
  const now = options.now ?? unixNow;
  const background = options.background ?? true;
  usePasswordCost(config.passwordCost);
  const db = await openConfigured(config, now(), log);
  // Listen first, so the first program's origins name the real port (PORT=0 picks one).
  const listening = await listen(config, log);
  const { port } = listening.server.address() as AddressInfo;
  const publicUrl = publicUrlOf(config, port);
  const firstProgram = await ensureFirstProgram(
    db,
    {
      name: 'My program',
      // The demo shop when it is served, else the collector's own page, never a 404.
      siteUrl: demoEnabled(config) ? `${publicUrl}/demo/` : `${publicUrl}/`,
      allowedOrigins: [publicUrl, `http://localhost:${port}`, `http://127.0.0.1:${port}`],
    },
    now(),
  );
  const clicks = clickMonths(db, config, log, now);
  await clicks.logged();
  const outbound = { ...DEFAULT_OUTBOUND, ...config.outbound, ...options.outbound };
  const firstSignInLink = firstProgram && publicUrl + linkPath(await firstOwnerLink(db, firstProgram.program.id, now()));
  // Off, no demo token is issued: a publishable token nobody asked for is one more to leak.
  const demo = demoEnabled(config) ? await demoToken(db, now()) : undefined;
  // E-mail is sent beside the requests, from the outbox they write (modules/mail/outbox.ts).
  const mailer = config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom ?? 'Tally <tally@localhost>') : undefined;
  const outbox = mailer
    ? startOutbox({
        db,
        log,
        now,
        mailer,
        compose: composers(publicUrl),
        pollMs: background ? (options.mailPollMs ?? 1000) : 0,
        // Notifications go out in the same loop (flows/notification-sender.ts).
        also: startNotifications({ db, log, mailer, publicUrl }).pass,
      })
    : undefined;
  listening.serve(
    createApp({
      db,
      log,
      now,
      demo: demo && { token: demo.token, programName: demo.program.name },
      limits: config.limits,
      publicUrl,
      outbox,
      outbound,
      stripeApiUrl: config.stripeApiUrl,
      lemonSqueezyApiUrl: config.lemonSqueezyApiUrl,
      wiseApiUrl: config.wiseApiUrl,
      platformApiUrls: config.platformApiUrls,
      wiseWebhookPublicKey: config.wiseWebhookPublicKey,
      taxFormKeys: config.taxFormKeys,
      paypalApiUrl: config.paypalApiUrl,
    }).callback(),
  );
  const loops = startLoops({ db, log, now, config, options, background, outbound, mailer: mailer !== undefined, clicks });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      loops.clear();
      await stopListening(listening.server);
      await loops.stop();
      await outbox?.stop();
      await db.close();
    })();
    return closing;
  };
  const work = { ...loops.work, sendMail: async () => outbox?.drain() };
  return {
    url: `http://${urlHost(config.host)}:${port}`,
    db,
    server: listening.server,
    firstProgram,
    firstSignInLink,
    outbox,
    work,
    close,
  };
}

/** The HTTP server, listening; until `serve` hands it the app, a request is told to come back. */
async function listen(config: Config, log: Logger): Promise<{ server: Server; serve(app: RequestListener): void }> {
  let handle: RequestListener = (_req, res) =>
    res
      .writeHead(503, { ...SECURITY_HEADERS, 'Retry-After': '1', 'Content-Type': 'application/json; charset=utf-8' })
      .end(JSON.stringify({ errors: [errorObject({ code: 'unavailable', detail: 'the server is starting; try again in a moment' })] }));
  const connections = config.connections ?? NO_CAPS;
  const server = createServer(serverOptions(connections), (req, res) => handle(req, res));
  guardConnections(server, connections, log);
  answerClientErrors(server, log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  return { server, serve: (app) => (handle = app) };
}

/**
 * Stops accepting and resolves once in-flight requests are answered; idle keep-alive
 * sockets are closed at once, and stragglers after 10 s.
 */
async function stopListening(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), 10_000);
  await stopped;
  clearTimeout(timer);
}

/**
 * Clicks' months (PostgreSQL), made before the first request and then every hour; old
 * ones dropped under CLICK_RETENTION_MONTHS. A failure costs nothing at once: a click
 * without its month waits in the DEFAULT partition for the next run.
 */
function clickMonths(db: Db, config: Config, log: Logger, now: () => number) {
  const run = () => maintainClicks(db, { now: now(), retentionMonths: config.clickRetentionMonths });
  const logged = () =>
    run()
      .then((done) => {
        if (done.made.length + done.dropped.length + done.moved > 0) log.info(done, 'clicks: months made or dropped');
      })
      .catch((err: unknown) =>
        log.warn({ cause: describeCause(err) }, 'making or dropping the months of clicks failed; the next run retries'),
      );
  return { run, logged };
}

interface Loops {
  db: Db;
  log: Logger;
  now: () => number;
  config: Config;
  options: ServerOptions;
  background: boolean;
  outbound: OutboundPolicy;
  /** Whether a sender runs, which prunes the notifications it keeps. */
  mailer: boolean;
  clicks: ReturnType<typeof clickMonths>;
}

/** The work beside the requests: webhooks, the statistics' fold, purges, click rewards and months; each on demand too (`work`). */
function startLoops({ db, log, now, config, options, background, outbound, mailer, clicks }: Loops) {
  // Webhooks are sent beside the requests, never in their path (docs/webhooks.md).
  const delivering = startDelivery({
    db,
    log,
    now,
    send: (url, headers, body) => postJson(url, headers, body, outbound),
    concurrency: config.webhookConcurrency ?? 16,
    // A claim outlives the longest attempt (one deadline for DNS, connect and answer) twice
    // over: it is counted from before the claim commits, which may wait its turn.
    leaseSeconds: 2 * Math.ceil(outbound.timeoutMs / 1000) + 10,
    pollMs: background ? (options.webhookPollMs ?? 500) : 0,
    jitter: options.webhookJitter,
  });
  const warn =
    (what: string, next = 'run') =>
    (err: unknown) =>
      log.warn({ cause: describeCause(err) }, `${what} failed; the next ${next} retries`);

  // The statistics' deltas are folded beside the requests; reads add what is not folded yet.
  // The leaderboard's kept windows are written and built beside it (docs/statistics.md).
  const fold = () => foldStats(db).then(() => keepWindows(db, now()));
  const folding = repeat(background, options.foldEveryMs ?? FOLD_EVERY_MS, () => fold().catch(warn('folding the statistics', 'fold')));

  // Raw clicks past their retention are deleted beside the requests, in short batches.
  const clickPurging =
    background && config.clickRetentionDays ? startClickPurge({ db, log, now, retentionDays: config.clickRetentionDays }) : undefined;

  // What can open nothing any more is deleted: sessions idle too long, expired links and
  // invitations; and, when no sender prunes them (no SMTP), notifications past their keeping.
  // The audit log's entries past AUDIT_RETENTION_DAYS go with them.
  const purgeAccess = async () => {
    await purgeExpiredAccess(db, now());
    if (!mailer) await pruneNotifications(db, now());
    await purgeAudit(db, now(), config.auditRetentionDays ?? AUDIT_RETENTION_DAYS);
  };
  const purge = async () => {
    await purgeAccess();
    if (config.clickRetentionDays) await purgeClicks(db, { now: now(), retentionDays: config.clickRetentionDays });
  };
  const purging = repeat(background, PURGE_EVERY_MS, () => purgeAccess().catch(warn('deleting expired sessions and links')));

  // Click rewards are paid once a UTC day is over; an hourly look finds the day soon after.
  const payClicks = () => payClickRewards(db, now());
  const payingClicks = repeat(background, PURGE_EVERY_MS, () => payClicks().catch(warn('paying click rewards')));

  // Scheduled payout runs: a look every 10 minutes finds a period soon after its local midnight.
  const payoutSchedules = () => runPayoutSchedules(db, now(), log);
  const scheduling = repeat(background, SCHEDULE_EVERY_MS, () => payoutSchedules().catch(warn('making scheduled payout runs')));
  const sendBroadcasts = () => sendDueBroadcasts(db, now());
  const broadcasting = repeat(background, BROADCASTS_EVERY_MS, () => sendBroadcasts().catch(warn('sending scheduled broadcasts')));

  let clickMaintenance: Promise<void> | undefined;
  const maintainingTimer = repeat(background, PURGE_EVERY_MS, () => {
    clickMaintenance ??= clicks.logged().finally(() => (clickMaintenance = undefined));
  });
  return {
    clear() {
      for (const timer of [folding, purging, payingClicks, maintainingTimer, scheduling, broadcasting]) clearInterval(timer);
    },
    async stop() {
      await delivering.stop();
      await clickPurging?.stop();
      await clickMaintenance;
    },
    work: { deliver: () => delivering.drain(), fold, purge, payClicks, payoutSchedules, maintainClicks: clicks.run, sendBroadcasts },
  };
}
