// The demo site is served only when asked for: DEMO=1 or 0, and when unset, only on a
// collector that listens on a loopback address, as a first start on a laptop does.
// Off, /demo/ is a 404 and no demo token is issued.

import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/collector/src/platform/config.js';
import { isLoopbackHost } from '../../packages/collector/src/platform/http/address.js';
import { startEdge, type Edge } from './edge.js';

let edge: Edge | undefined;
afterEach(async () => {
  await edge?.close();
  edge = undefined;
});

async function demoTokens(e: Edge): Promise<number> {
  const row = await e.running.db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM tokens WHERE label = 'demo'");
  return Number(row?.n);
}

async function expectDemo(e: Edge, on: boolean) {
  for (const path of ['/demo/', '/demo/signup']) {
    const res = await fetch(e.url + path);
    const text = await res.text();
    if (on) {
      expect(res.status).toBe(200);
      expect(text).toMatch(/data-key="tly_pub_/);
    } else {
      expect(res.status).toBe(404);
      expect(JSON.parse(text).errors[0].code).toBe('not_found');
    }
  }
  expect(await demoTokens(e)).toBe(on ? 1 : 0);
  // The first program's site (where referral links lead) is a page that exists.
  const site = (await e.running.db.get<{ site_url: string }>('SELECT site_url FROM programs'))!.site_url;
  expect(site).toMatch(on ? /\/demo\/$/ : /:\d+\/$/);
  expect((await fetch(new URL(new URL(site).pathname, e.url))).status).toBe(200);
}

describe('DEMO unset', () => {
  it('is on when the collector listens on a loopback address', async () => {
    edge = await startEdge({ host: '127.0.0.1' });
    await expectDemo(edge, true);
  });

  it('is off when it listens on every address', async () => {
    edge = await startEdge({ host: '0.0.0.0' });
    await expectDemo(edge, false);
    // The rest of the service is there.
    expect((await fetch(`${edge.url}/healthz`)).status).toBe(200);
  });
});

describe('DEMO set', () => {
  it('DEMO=0 turns it off on a loopback address', async () => {
    edge = await startEdge({ host: '127.0.0.1', demo: false });
    await expectDemo(edge, false);
  });

  it('DEMO=1 turns it on on every address', async () => {
    edge = await startEdge({ host: '0.0.0.0', demo: true });
    await expectDemo(edge, true);
  });
});

describe('configuration', () => {
  it('DEMO is 1, 0 or unset', () => {
    expect(loadConfig({ DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
    expect(loadConfig({}).demo).toBeUndefined();
    expect(() => loadConfig({ DEMO: 'yes' })).toThrow(/DEMO/);
  });

  it('loopback hosts are 127.0.0.0/8, ::1 and localhost', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '[::1]', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.2', '128.0.0.1', 'example.com', 'localhost.example.com', '::2', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
