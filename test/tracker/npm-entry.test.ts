// @vitest-environment jsdom
// @vitest-environment-options { "url": "https://www.shop.test/landing?red=alice" }
//
// The npm entry for bundlers: `import { init, track } from '@tally/tracker'`.

import { afterAll, describe, expect, it } from 'vitest';

const sent: Array<{ url: string; body: Record<string, unknown> }> = [];
const realFetch = globalThis.fetch;
// The network is the one fake: record each request and answer as the collector would.
globalThis.fetch = (async (url: string, init: RequestInit) => {
  sent.push({ url, body: JSON.parse(String(init.body)) });
  return new Response(JSON.stringify({ data: { id: 'ref-9', attributes: { state: 'converted' } } }), { status: 201 });
}) as typeof fetch;
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe('@tally/tracker', () => {
  it('track before init resolves to null; init reads the referral; track sends it', async () => {
    const { init, track } = await import('@tally/tracker');
    expect(await track('early@user.test')).toBeNull();
    const gr = init({ key: 'tly_pub_npm', api: 'https://collector.test/', cookieDays: 10 });
    expect(init({ key: 'ignored' })).toBe(gr);
    expect(sent.map((s) => s.url)).toEqual(['https://collector.test/v1/tracking/click']);
    expect(await track('npm@user.test', { uid: 'u1' })).toEqual({ id: 'ref-9', state: 'converted' });
    expect(sent[1]).toEqual({
      url: 'https://collector.test/v1/tracking/conversion',
      body: { email: 'npm@user.test', gr_id: expect.any(String), pk: 'alice', uid: 'u1' },
    });
    let ready: unknown;
    gr('ready', (r: unknown) => (ready = r));
    expect(ready).toMatchObject({ pk: 'alice' });
  });
});
