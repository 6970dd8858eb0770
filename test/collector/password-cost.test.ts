// What a password costs to guess is what the configuration says: test servers lower it
// (harness.ts), so a server configured from the environment, as every deployment is,
// must still store production's scrypt N = 2^15, r = 8, p = 1.

import { afterEach, expect, it } from 'vitest';
import { PASSWORD_COST } from '../../packages/collector/src/modules/identity/passwords.js';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer } from '../../packages/collector/src/server.js';
import { testDatabase, withDb } from './database.js';
import { startCollector, TEST_PASSWORD_COST } from './harness.js';
import { ownerSession } from './session.js';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const storedHash = (databaseUrl: string, email: string) =>
  withDb(databaseUrl, async (db) => (await db.get<{ h: string }>('SELECT password_hash AS h FROM users WHERE email = ?', [email]))?.h);

const post = async (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

it('a server configured from the environment hashes at scrypt N = 2^15, r = 8, p = 1, and signs in with it', async () => {
  expect(PASSWORD_COST).toEqual({ N: 2 ** 15, r: 8, p: 1 });
  const database = await testDatabase();
  closing.push(() => database.drop());
  const config = loadConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  expect(config.passwordCost).toBeUndefined(); // no variable sets it
  // A test server first, so the production server is seen to set the cost back, not to inherit it.
  const lowered = await startCollector();
  closing.push(() => lowered.close());
  const server = await startServer(config, createLogger('silent'), { background: false });
  closing.push(() => server.close());
  const link = server.firstSignInLink ?? '';
  const redeemed = await post(`${server.url}/v1/auth/redeem`, {
    token: link.slice(link.indexOf('#') + 1),
    email: 'first@owner.test',
    password: 'first owner password',
  });
  expect(redeemed.status).toBe(200);
  expect(await storedHash(database.url, 'first@owner.test')).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  expect((await post(`${server.url}/v1/auth/sign_in`, { email: 'first@owner.test', password: 'first owner password' })).status).toBe(200);
  expect((await post(`${server.url}/v1/auth/sign_in`, { email: 'first@owner.test', password: 'wrong owner password' })).status).toBe(401);
});

it("a configured cost is the one a new password is stored with (the test servers')", async () => {
  const c = await startCollector();
  closing.push(() => c.close());
  const owner = await ownerSession(c);
  const { N, r, p } = TEST_PASSWORD_COST;
  expect(await storedHash(c.databaseUrl, owner.email)).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$`));
  expect((await owner.call('GET', '/v1/auth/session')).status).toBe(200);
});
