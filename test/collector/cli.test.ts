// The `tally` CLI against a real database file, in process (main() with the test's own
// environment and output). The built binary in a process of its own: cli-binary.test.ts.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../packages/collector/src/platform/log.js';
import { startServer } from '../../packages/collector/src/server.js';
import { testDatabase, type TestDatabase } from './database.js';
import { tally } from './processes.js';
import { msUntil } from './served.js';

let database: TestDatabase;
let env: Record<string, string>;
beforeEach(async () => {
  database = await testDatabase();
  env = { DATABASE_URL: database.url };
});
afterEach(async () => {
  await database.drop();
});

async function createProgram(...extra: string[]) {
  const run = await tally(['programs', 'create', '--name', 'Acme', '--site-url', 'https://acme.test/', '--json', ...extra], env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as { program: { id: string; name: string }; tokens: { secret: string; publishable: string } };
}

describe('tally programs', () => {
  it('create --json prints exactly one JSON object with the program and both tokens', async () => {
    const run = await tally(['programs', 'create', '--name', 'Acme', '--site-url', 'https://acme.test', '--json'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual(['program', 'tokens']);
    expect(Object.keys(out.program)).toEqual(['id', 'name']);
    expect(out.program.name).toBe('Acme');
    expect(out.program.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(out.tokens)).toEqual(['secret', 'publishable']);
    expect(out.tokens.secret).toMatch(/^tly_sec_[0-9A-Za-z]{38}$/);
    expect(out.tokens.publishable).toMatch(/^tly_pub_[0-9A-Za-z]{38}$/);
  });

  it('list shows the programs with their origins, and the rate option is stored', async () => {
    const made = await createProgram(
      '--allowed-origin',
      'https://Www.Acme.test:443',
      '--allowed-origin',
      'https://app.acme.test',
      '--commission-rate-bps',
      '1500',
    );
    const run = await tally(['programs', 'list', '--json'], env);
    const [program] = JSON.parse(run.stdout);
    expect(program).toMatchObject({
      id: made.program.id,
      name: 'Acme',
      site_url: 'https://acme.test/',
      commission_rate_bps: 1500,
      allowed_origins: ['https://app.acme.test', 'https://www.acme.test'],
    });
    const human = await tally(['programs', 'list'], env);
    expect(human.stdout).toContain(made.program.id);
  });
});

describe('tally programs update', () => {
  it('changes name, site URL, rate and origins (added and removed by name) at once, keeping the rest', async () => {
    const made = await createProgram('--allowed-origin', 'https://www.acme.test', '--allowed-origin', 'https://old.acme.test');
    const run = await tally(
      [
        'programs',
        'update',
        made.program.id,
        '--name',
        'Acme Inc',
        '--site-url',
        'https://acme.example/pricing',
        '--add-origin',
        'https://App.Acme.example:443',
        '--remove-origin',
        'https://old.acme.test',
        '--commission-rate-bps',
        '2500',
        '--json',
      ],
      env,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const expected = {
      id: made.program.id,
      name: 'Acme Inc',
      site_url: 'https://acme.example/pricing',
      commission_rate_bps: 2500,
      allowed_origins: ['https://app.acme.example', 'https://www.acme.test'],
    };
    expect(JSON.parse(run.stdout)).toMatchObject(expected);
    const [listed] = JSON.parse((await tally(['programs', 'list', '--json'], env)).stdout);
    expect(listed).toMatchObject(expected);
  });

  it('the same program then takes conversions from the added origin, and no longer from the removed one', async () => {
    const made = await createProgram('--allowed-origin', 'https://old.acme.test');
    await tally(
      ['programs', 'update', made.program.id, '--add-origin', 'https://www.acme.example', '--remove-origin', 'https://old.acme.test'],
      env,
    );
    const server = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: database.url, logLevel: 'silent' }, createLogger('silent'));
    try {
      const post = (origin: string) =>
        fetch(`${server.url}/v1/tracking/conversion`, {
          method: 'POST',
          headers: { authorization: `Bearer ${made.tokens.publishable}`, 'content-type': 'application/json', origin },
          body: JSON.stringify({ email: 'a@b.test', gr_id: 'g' }),
        });
      expect((await post('https://www.acme.example')).status).toBe(422); // past the origin check: unattributed
      expect((await post('https://old.acme.test')).status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['nothing to change', [], /nothing to change/],
    ['removing an origin it does not have', ['--remove-origin', 'https://nope.test'], /https:\/\/nope\.test is not an allowed origin/],
    ['an empty name', ['--name', ' '], /name must not be empty/],
    ['a bad rate', ['--commission-rate-bps', '10001'], /commission rate/],
  ])('refuses %s, changing nothing', async (_name, args, message) => {
    const made = await createProgram('--allowed-origin', 'https://www.acme.test');
    const run = await tally(['programs', 'update', made.program.id, ...(args as string[])], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message as RegExp);
    const [listed] = JSON.parse((await tally(['programs', 'list', '--json'], env)).stdout);
    expect(listed).toMatchObject({ name: 'Acme', allowed_origins: ['https://www.acme.test'], commission_rate_bps: 2000 });
  });
});

describe('tally tokens', () => {
  it('create, list by prefix only, and revoke, which a running server honours within a second', async () => {
    const made = await createProgram();
    const server = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: env.DATABASE_URL!, logLevel: 'silent', publicUrl: 'http://localhost' },
      createLogger('silent'),
    );
    try {
      const created = await tally(['tokens', 'create', '--program', made.program.id, '--kind', 'secret', '--json'], env);
      expect(created.code).toBe(0);
      const issued = JSON.parse(created.stdout);
      expect(issued).toMatchObject({ program_id: made.program.id, kind: 'secret' });
      expect(issued.token).toMatch(/^tly_sec_/);

      const get = () => fetch(`${server.url}/v1/partners`, { headers: { authorization: `Bearer ${issued.token}` } });
      expect((await get()).status).toBe(200);

      const listed = await tally(['tokens', 'list', '--program', made.program.id, '--json'], env);
      const rows = JSON.parse(listed.stdout);
      // The program's two, the one just made, and the demo page's, which each start replaces.
      expect(rows).toHaveLength(4);
      expect(rows.filter((r: { label: string | null }) => r.label === 'demo')).toHaveLength(1);
      for (const row of rows) expect(row.prefix).toMatch(/^tly_(sec|pub)_[0-9A-Za-z]{4}$/);
      for (const token of [issued.token, made.tokens.secret, made.tokens.publishable]) {
        expect(listed.stdout).not.toContain(token);
        expect((await tally(['tokens', 'list', '--program', made.program.id], env)).stdout).not.toContain(token);
      }

      // The server keeps the token in memory now; the CLI's change reaches it by the database.
      for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
      const revoked = await tally(['tokens', 'revoke', issued.id], env);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain('revoked');
      expect(await msUntil(async () => (await get()).status === 401)).toBeLessThan(1000);
      expect((await get()).status).toBe(401);
      const again = await tally(['tokens', 'revoke', issued.id], env);
      expect(again.stdout).toContain('already revoked');
      const afterList = JSON.parse((await tally(['tokens', 'list', '--program', made.program.id, '--json'], env)).stdout);
      expect(afterList.find((t: { id: string }) => t.id === issued.id).revoked_at).toEqual(expect.any(Number));
      // The program's other secret token still works.
      const other = await fetch(`${server.url}/v1/partners`, { headers: { authorization: `Bearer ${made.tokens.secret}` } });
      expect(other.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('bad arguments: one line on stderr and exit code 2', () => {
  const cases: Array<[string, string[]]> = [
    ['an unknown command', ['launch']],
    ['an unknown subcommand', ['programs', 'delete']],
    ['an unknown option', ['programs', 'list', '--verbose']],
    ['a missing --name', ['programs', 'create', '--site-url', 'https://a.test']],
    ['a bad site URL', ['programs', 'create', '--name', 'A', '--site-url', 'not a url']],
    [
      'an origin with a path',
      ['programs', 'create', '--name', 'A', '--site-url', 'https://a.test', '--allowed-origin', 'https://a.test/path'],
    ],
    ['a bad rate', ['programs', 'create', '--name', 'A', '--site-url', 'https://a.test', '--commission-rate-bps', '20001']],
    ['a bad kind', ['tokens', 'create', '--program', '01900000-0000-7000-8000-000000000000', '--kind', 'admin']],
    ['an unknown program', ['tokens', 'create', '--program', '01900000-0000-7000-8000-000000000000', '--kind', 'secret']],
    ['revoke without an id', ['tokens', 'revoke']],
    ['revoke of an unknown token', ['tokens', 'revoke', 'nope']],
    ['a missing --program', ['tokens', 'list']],
  ];
  it.each(cases)('%s', async (_name, args) => {
    const run = await tally(args, env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^tally: \S/);
  });

  it.each([
    ['an unknown option', ['programs', 'list', '--verbose'], 'tally: unknown option --verbose for "tally programs list"; it takes --json'],
    ['a value for a flag', ['programs', 'list', '--json=yes'], 'tally: --json takes no value; "tally programs list" takes --json'],
    [
      'a missing value',
      ['tokens', 'list', '--program'],
      'tally: --program needs a value; "tally tokens list" takes --program PROGRAM, --json',
    ],
  ])('%s names the option and the options the command takes', async (_name, args, line) => {
    const run = await tally(args as string[], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${line}\n`);
  });

  it('a bad environment variable is a usage error too', async () => {
    const run = await tally(['programs', 'list'], { ...env, PORT: 'eighty' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^tally: invalid configuration: PORT/);
  });
});

describe('--help', () => {
  const commands = [
    [],
    ['serve'],
    ['programs'],
    ['programs', 'create'],
    ['programs', 'list'],
    ['tokens'],
    ['tokens', 'create'],
    ['tokens', 'list'],
    ['tokens', 'revoke'],
  ];
  it.each(commands.map((c) => [c.join(' ') || '(top level)', c]))('%s --help', async (_name, command) => {
    const run = await tally([...(command as string[]), '--help'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/tally/);
    expect(run.stderr).toBe('');
  });
});

describe('a running server and the CLI beside it', () => {
  it('an origin the CLI removes is refused within a second, and one it adds is allowed as soon', async () => {
    const made = await createProgram('--allowed-origin', 'https://www.acme.test');
    const server = await startServer(
      { port: 0, host: '127.0.0.1', databaseUrl: env.DATABASE_URL!, logLevel: 'silent', publicUrl: 'http://localhost' },
      createLogger('silent'),
    );
    // A click from a page: the publishable token and the page's origin, both kept in memory once seen.
    const click = (origin: string) =>
      fetch(`${server.url}/v1/tracking/click`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.tokens.publishable}`, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ gr_id: 'g1', pk: 'nobody' }),
      }).then(async (r) => (await r.json()).errors?.[0]?.code ?? r.status);
    try {
      for (let i = 0; i < 3; i++) {
        expect(await click('https://www.acme.test')).not.toBe('origin_not_allowed');
        expect(await click('https://app.acme.test')).toBe('origin_not_allowed');
      }
      const run = await tally(
        ['programs', 'update', made.program.id, '--remove-origin', 'https://www.acme.test', '--add-origin', 'https://app.acme.test'],
        env,
      );
      expect(run.code).toBe(0);
      expect(await msUntil(async () => (await click('https://www.acme.test')) === 'origin_not_allowed')).toBeLessThan(1000);
      expect(await click('https://app.acme.test')).not.toBe('origin_not_allowed');
    } finally {
      await server.close();
    }
  });
});
