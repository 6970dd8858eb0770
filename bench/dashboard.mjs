// The overview page, cold, against the seeded program (1,000,000 commissions): from the
// start of the navigation until the page is interactive, that is, its figures, chart and
// top partners are drawn and the main thread has had its last long task (Chromium's own
// long-task entries, 50 ms or more). Each load is a fresh browser context: no cache, no
// service worker, a session cookie only.

import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { TALLY } from './processes.mjs';

const LOADS = Number(process.env.BENCH_DASHBOARD_LOADS ?? 7);

/** Signs a new owner in over the API; resolves to the session cookie's value. */
async function ownerCookie(base, databaseUrl, programId) {
  const out = execFileSync(process.execPath, [TALLY, 'users', 'invite', `bench${Date.now()}@owner.test`, '--program', programId], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PUBLIC_URL: base },
    encoding: 'utf8',
  });
  const token = /#(\S+)/.exec(out)?.[1];
  const res = await fetch(`${base}/v1/auth/redeem`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: 'bench owner password' }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tally_session='));
  if (!cookie) throw new Error(`no session: ${res.status} ${await res.text()}`);
  return cookie.split(';')[0].split('=')[1];
}

export async function overviewRow(base, databaseUrl, programId) {
  const value = await ownerCookie(base, databaseUrl, programId);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const times = [];
  try {
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ name: 'tally_session', value, url: base }]);
      await context.addInitScript(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((e) => e.startTime + e.duration))).observe({
          type: 'longtask',
          buffered: true,
        });
      });
      const page = await context.newPage();
      await page.goto(`${base}/dashboard/?range=90`);
      await page.waitForSelector('.chart .plot canvas', { timeout: 30_000 });
      await page.waitForSelector('ol.top-partners li');
      const drawn = await page.evaluate(() => performance.now());
      await page.waitForTimeout(300); // a long task that was still running is counted too
      const lastLongTask = await page.evaluate(() => Math.max(0, ...window.__longTasks));
      times.push(Math.max(drawn, lastLongTask));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  times.sort((a, b) => a - b);
  const row = {
    name: 'dashboard: overview, cold, until interactive',
    p50Ms: Math.round(times[times.length >> 1]),
    maxMs: Math.round(times.at(-1)),
    loads: LOADS,
  };
  console.log(`${row.name.padEnd(64)} p50 ${row.p50Ms} ms  max ${row.maxMs} ms  (${LOADS} loads)`);
  return row;
}
