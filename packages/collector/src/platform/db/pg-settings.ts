// Db.settingsVersion on PostgreSQL. Triggers on the settings tables (migrations.ts) do two
// things: NOTIFY every listening session when the change commits, and raise a NOTICE to
// the session making it, at once. Other processes' changes arrive by the NOTIFY, on a
// connection of this process's own that LISTENs; our own by the NOTICE, counted once the
// transaction that raised it has committed, so that the answer to a revocation is sent
// only after this process has stopped trusting the token.

import pg from 'pg';
import type { SettingsClock } from './db.js';

export const SETTINGS_CHANNEL = 'tally_settings';
/** The tables whose triggers NOTIFY (migrations 0014 onwards); test/postgres/pgbouncer-rules.test.ts holds it to the schema. */
export const SETTINGS_TABLES = [
  'tokens',
  'programs',
  'program_origins',
  'webhook_endpoints',
  'slugs',
  'partnerships',
  'partners',
  'partner_groups',
  'rewards',
  'discounts',
  'bounties',
  'two_tier_settings',
];
/** A statement that writes one of them. */
export const WRITES_SETTINGS = new RegExp(String.raw`\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:${SETTINGS_TABLES.join('|')})\b`, 'i');
/** What the triggers raise; a psql user changing a token by hand sees it too. */
export const SETTINGS_NOTICE = 'tally: settings changed';
/** After the listening connection is lost, the next try waits this long (nothing is kept meanwhile). */
const RETRY_MS = 1000;

export interface SettingsWatch extends SettingsClock {
  /** Undefined until this process listens, and whenever it stops listening. */
  version(): number | undefined;
  /** A change of ours has committed. */
  changed(): void;
  /**
   * Notifications heard on the channel so far, any schema's and ours included: one sent
   * now has arrived once this moves, and with it every one committed before it (a test
   * knows so that nothing else is coming, without waiting a guessed time).
   */
  heard(): number;
  close(): Promise<void>;
}

export interface OwnChanges {
  /**
   * Whether a NOTIFY from server backend `pid` is one of this process's own changes, which
   * `changed()` has counted already (at their commit), taken off as it is heard: counted
   * again, it would make every reader since read again.
   */
  claim(pid: number): boolean;
  /** Nobody listened for a while: the NOTIFYs expected meanwhile will never come. */
  forget(): void;
}

export function settingsWatch(connectionString: string, own: OwnChanges): SettingsWatch {
  let version = 0;
  let heard = 0;
  let listener: pg.Client | undefined;
  let listening = false;
  let retryAt = 0;
  let closed = false;

  // Whatever was kept may have changed unseen while nobody listened: a new count.
  const lost = (client: pg.Client) => {
    if (listener !== client) return;
    listener = undefined;
    listening = false;
    version++;
    own.forget();
    retryAt = Date.now() + RETRY_MS;
    client.end().catch(() => undefined);
  };

  const listen = async (client: pg.Client): Promise<void> => {
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    await client.connect();
    // Deployments may share a database, one schema each: the triggers name theirs.
    const schema = (await client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]?.s;
    client.on('notification', (m) => {
      if (m.channel === SETTINGS_CHANNEL) heard++;
      if (m.channel === SETTINGS_CHANNEL && m.payload === schema && !own.claim(m.processId)) version++;
    });
    await client.query(`LISTEN ${SETTINGS_CHANNEL}`);
    if (listener !== client) return;
    version++; // changes made before LISTEN took effect were never heard
    own.forget(); // nor will their NOTIFYs be: a backend's next one may be another's change
    listening = true;
  };

  return {
    version() {
      if (!listener && !closed && Date.now() >= retryAt) {
        const client = new pg.Client({ connectionString, application_name: 'tally-settings' });
        listener = client;
        listen(client).catch(() => lost(client));
      }
      return listening ? version : undefined;
    },
    changed() {
      version++;
    },
    heard: () => heard,
    async close() {
      closed = true;
      listening = false;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
