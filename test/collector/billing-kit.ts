// What the tests of every billing platform share: a program of its own connected to the
// platform with one secret, a partner's referral made by the snippet, and the records
// the API lists. The platform's events themselves come from its own fixtures file.

import { expect } from 'vitest';
import { seedPartner, type Collector, type CollectorOptions } from './harness.js';
import { leadReward, programsKit, type Json, type Program } from './programs-kit.js';

export type { Json };

export interface Connected extends Program {
  /** The secret set for the program's endpoint. */
  signing: string;
  /** The endpoint id, the last part of the webhook URL. */
  endpoint: string;
}

export function billingKit(platform: string, opts: CollectorOptions = {}) {
  const kit = programsKit(opts);
  let visits = 0;

  /** A program of its own, connected to the platform with `signing`, with `changes` to its settings. */
  async function connected(signing: string, changes: Json = {}): Promise<Connected> {
    const c: Collector = kit.c;
    const p = await c.otherProgram();
    const added = await kit.ok(p, 'POST', `/v1/integrations/${platform}/secrets`, { secret: signing });
    if (Object.keys(changes).length > 0) await kit.ok(p, 'PATCH', '/v1/program', changes);
    const endpoint = new URL(added.meta.endpoint_url).pathname.split('/').pop() ?? '';
    return { ...p, signing, endpoint };
  }

  /** A click on the partner's link: its click id, as the tracker passes it to the page. */
  async function click(p: Program, key: string): Promise<string> {
    const grId = `gr-${platform}-${++visits}`;
    const reply = await kit.c.call('POST', '/v1/tracking/click', {
      token: p.publishable,
      body: { gr_id: grId, pk: key, url: 'https://shop.test/' },
    });
    expect(reply.status).toBe(202);
    return grId;
  }

  /** A partner and a referral of theirs made by the snippet's track(email). */
  async function referral(p: Program, email = `buyer${++visits}@shop.test`) {
    const partner = await seedPartner(kit.c, { token: p.secret, paypal_email: `pay${visits}@partner.test` });
    const grId = await click(p, partner.key);
    const conv = await kit.c.call('POST', '/v1/tracking/conversion', {
      token: p.publishable,
      body: { email, gr_id: grId, pk: partner.key },
    });
    expect(conv.status).toBe(201);
    return { ...partner, grId, email, referralId: conv.body.data.id as string };
  }

  const list = async (p: Program, what: string, query = ''): Promise<Json[]> =>
    (await kit.ok(p, 'GET', `/v1/${what}?per_page=50${query}`)).data;
  /** The commissions' amounts, smallest first: the money as the partner sees it. */
  const amounts = async (p: Program): Promise<number[]> =>
    (await list(p, 'commissions')).map((x) => x.attributes.amount as number).sort((a, b) => a - b);
  /** The program's log of this platform's events, newest first. */
  const events = (p: Program) => list(p, `integrations/${platform}/events`);

  /**
   * A lead reward of 500 on the metadata plan=pro in the default group, a partner whose
   * snippet-made referral (no metadata) earns none of it, and a click of theirs for an
   * event to make a sign-up from.
   */
  async function metadataLead(p: Program): Promise<string> {
    const [defaultGroup] = (await kit.ok(p, 'GET', '/v1/groups')).data;
    await kit.ok(
      p,
      'POST',
      `/v1/groups/${defaultGroup.id}/rewards`,
      leadReward(500, { field: 'metadata', key: 'plan', op: 'eq', value: 'pro' }),
    );
    const partner = await referral(p);
    expect(await amounts(p)).toEqual([]);
    return click(p, partner.key);
  }

  /** What metadataLead's sign-up made from a sale of 2,000: the lead reward and 20 % of the sale. */
  async function expectMetadataLeadPaid(p: Program): Promise<void> {
    const described = (await list(p, 'commissions')).map((x) => [x.attributes.amount, x.attributes.reward_description]);
    expect(described).toContainEqual([500, 'USD 5.00 for a sign-up']);
    expect(await amounts(p)).toEqual([400, 500]);
  }

  return {
    metadataLead,
    expectMetadataLeadPaid,
    get c(): Collector {
      return kit.c;
    },
    api: kit.api,
    ok: kit.ok,
    connected,
    click,
    referral,
    list,
    amounts,
    events,
  };
}
