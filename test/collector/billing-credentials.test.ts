// A platform's credential (what its API needs from a program), on both engines: every field
// checked, secrets answered only as hints, replaced whole, removed once, and one program's
// never another's. The flows are driven with a platform of the test's own: the platforms
// that declare a credential test their routes and their calls in their own files.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHints, removeCredential, setCredential } from '../../packages/collector/src/flows/billing-connect.js';
import type { Platform } from '../../packages/collector/src/modules/billing/facts.js';
import * as billing from '../../packages/collector/src/modules/billing/repo.js';
import { ServiceError } from '../../packages/collector/src/platform/errors.js';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import { startCollector, type Collector } from './harness.js';
import { stripePlatform } from '../../packages/collector/src/modules/stripe/platform.js';

const acme: Platform = {
  ...stripePlatform,
  name: 'acme',
  title: 'Acme Billing',
  credential: {
    explain: 'the site and an API key',
    fields: [
      {
        name: 'site',
        label: 'Site',
        pattern: /^[a-z0-9-]{2,50}$/,
        explain: 'the site as in its address: letters, digits and dashes',
        secret: false,
      },
      {
        name: 'api_key',
        label: 'API key',
        pattern: /^(live|test)_[A-Za-z0-9]{16,}$/,
        explain: 'an API key: live_… or test_…',
        secret: true,
      },
    ],
  },
};

let c: Collector;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

const refused = async (given: Record<string, string>): Promise<ServiceError> => {
  const err = await setCredential(c.running.db, acme, c.programId, given, c.clock.now).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
};

describe("a platform's credential", () => {
  it('checks every field, and refuses one it does not declare, storing nothing', async () => {
    expect((await refused({ site: 'acme' })).code).toBe('missing_field');
    expect((await refused({ site: 'Acme Inc', api_key: 'test_0123456789abcdef' })).code).toBe('invalid_field');
    expect((await refused({ site: 'acme', api_key: 'test_0123456789abcdef', extra: 'x' })).code).toBe('invalid_field');
    expect(await billing.credential(c.running.db, c.programId, 'acme')).toBeUndefined();
  });

  it('is kept trimmed, answered with its secrets as hints, and replaced whole', async () => {
    await setCredential(c.running.db, acme, c.programId, { site: ' acme ', api_key: 'test_0123456789abcdef' }, c.clock.now);
    const kept = await billing.credential(c.running.db, c.programId, 'acme');
    expect(kept).toEqual({ site: 'acme', api_key: 'test_0123456789abcdef' });
    expect(credentialHints(acme, kept)).toEqual({ site: 'acme', api_key: '…cdef' });
    await setCredential(c.running.db, acme, c.programId, { site: 'acme-eu', api_key: 'live_ZYXWVUTSRQPONMLK' }, c.clock.now + 1);
    expect(await billing.credential(c.running.db, c.programId, 'acme')).toEqual({ site: 'acme-eu', api_key: 'live_ZYXWVUTSRQPONMLK' });
  });

  it("is one program's: another's is its own, and removing one leaves the other", async () => {
    const other = await c.otherProgram();
    await setCredential(c.running.db, acme, other.id, { site: 'other', api_key: 'test_ffffffffffffffff' }, c.clock.now);
    await removeCredential(c.running.db, acme, c.programId);
    expect(await billing.credential(c.running.db, c.programId, 'acme')).toBeUndefined();
    expect(await billing.credential(c.running.db, other.id, 'acme')).toEqual({ site: 'other', api_key: 'test_ffffffffffffffff' });
    const again = await removeCredential(c.running.db, acme, c.programId).catch((e: unknown) => e);
    expect((again as ServiceError).code).toBe('not_found');
  });

  it('is refused for a platform that declares none', async () => {
    const err = await setCredential(c.running.db, stripePlatform, c.programId, { site: 'acme' }, c.clock.now).catch((e: unknown) => e);
    expect((err as ServiceError).code).toBe('not_found');
    expect(credentialHints(stripePlatform, { site: 'acme' })).toBeNull();
  });
});

describe("a platform's API elsewhere (<NAME>_API_URL)", () => {
  it('is read for any name, without its trailing slash, and a bad one stops the start', () => {
    const config = loadConfig({ ACME_API_URL: 'http://127.0.0.1:9999/', STRIPE_API_URL: 'http://127.0.0.1:9998' });
    expect(config.platformApiUrls).toEqual({ acme: 'http://127.0.0.1:9999', stripe: 'http://127.0.0.1:9998' });
    expect(() => loadConfig({ ACME_API_URL: 'ftp://example.com' })).toThrow(/ACME_API_URL/);
  });
});
