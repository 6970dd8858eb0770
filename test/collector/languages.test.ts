// Languages through the API (docs/languages.md): the program's default (`locale`, set by
// the owner) on the program, its public page and the partner's partnerships; the partner's
// own choice on their portal account, on every program they joined, and on the partner
// resource. Anything but en, de, fr or es is refused in the one error shape.

import { describe, expect, it } from 'vitest';
import { expectError } from './harness.js';
import { programsKit, type Program } from './programs-kit.js';

const kit = programsKit({ limits: { perToken: 0, perIp: 0, trustProxy: 0, applicationsPerHour: 0 } });

let n = 0;
/** A program of its own, its page up in `locale`. */
async function program(locale?: string): Promise<Program & { slug: string }> {
  const p = await kit.c.otherProgram();
  const slug = `lang-${++n}`;
  await kit.ok(p, 'PATCH', '/v1/program', { slug, page_enabled: true, ...(locale ? { locale } : {}) });
  return { ...p, slug };
}

/** Applies on the page and returns a call signed in as the applicant. */
async function partnerOf(slug: string, email = `lang${++n}@partners.test`) {
  const applied = await kit.c.call('POST', `/v1/public/programs/${slug}/applications`, {
    token: null,
    body: { name: 'Lena', email, password: 'a long partner password' },
  });
  expect(applied.status).toBe(201);
  const cookie = applied.headers.getSetCookie()[0]!.split(';')[0]!;
  return (method: string, path: string, body?: unknown) =>
    kit.c.call(method, path, { token: null, body, headers: { cookie, origin: kit.c.url } });
}

describe("the program's default language", () => {
  it('is en until the owner sets it; the page and the partnerships show it; another value is refused', async () => {
    const p = await program();
    expect((await kit.ok(p, 'GET', '/v1/program')).data.attributes.locale).toBe('en');
    expect((await kit.ok(p, 'PATCH', '/v1/program', { locale: 'fr' })).data.attributes.locale).toBe('fr');
    const page = await kit.c.call('GET', `/v1/public/programs/${p.slug}`, { token: null });
    expect(page.body.data.attributes.locale).toBe('fr');
    const me = await partnerOf(p.slug);
    expect((await me('GET', '/v1/portal/partnerships')).body.data[0].attributes.program_locale).toBe('fr');
    const refused = expectError(await kit.api(p, 'PATCH', '/v1/program', { locale: 'pt' }), 422, 'invalid_field');
    expect(refused.source).toEqual({ pointer: '/locale' });
    expect((await kit.ok(p, 'GET', '/v1/program')).data.attributes.locale).toBe('fr');
  });
});

describe("the partner's language", () => {
  it('is null until chosen; the choice reaches every program of the account and the partner resource, and null clears it', async () => {
    const first = await program('es');
    const second = await program();
    const email = `polyglot${++n}@partners.test`;
    const me = await partnerOf(first.slug, email);
    expect((await me('GET', '/v1/portal/account')).body.data.attributes.locale).toBeNull();
    expect((await me('PATCH', '/v1/portal/account', { locale: 'de' })).body.data.attributes.locale).toBe('de');
    expect((await kit.ok(first, 'GET', '/v1/partners')).data[0].attributes.locale).toBe('de');
    // Joining another program from its page, the account keeps its language there too.
    await partnerOf(second.slug, email);
    expect((await kit.ok(second, 'GET', '/v1/partners')).data[0].attributes.locale).toBe('de');
    const refused = expectError(await me('PATCH', '/v1/portal/account', { locale: 'klingon' }), 422, 'invalid_field');
    expect(refused.source).toEqual({ pointer: '/locale' });
    expect((await me('PATCH', '/v1/portal/account', { locale: null })).body.data.attributes.locale).toBeNull();
    // Unset, the partner resource leaves it out, as it does every optional attribute.
    expect((await kit.ok(second, 'GET', '/v1/partners')).data[0].attributes).not.toHaveProperty('locale');
  });
});
