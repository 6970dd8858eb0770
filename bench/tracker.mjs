// The snippet's work on the page's main thread at load (docs/tracker.md §12: under 1 ms),
// read from Chromium's own trace: the EvaluateScript event of the script, which holds
// its compile and run and everything it does synchronously (reading the address, the
// cookie and storage, starting the click's fetch). Each load is a fresh browser context,
// as a visitor's first page on a site is.
//
// Five baselines load the same way in the same run: an empty script; one read of
// document.cookie, the floor of any first-party attribution script for a visitor with
// nothing stored ("cookie only", which the snippet's page without a referral is measured
// against); and one read of document.cookie and one of localStorage, the floor before the
// flag cookie let such a page skip storage. Chromium answers both reads by a synchronous
// call to its browser process, so those floors are the machine's, not the snippet's.
// The last two say what the cookie-only floor leaves out: one cookie read and a read of
// the address (where a referral arrives, so every page must read it), and one cookie read
// beside the snippet's whole text parsed but not run.
//
// The site is www.shop.co.uk (every host name resolves to 127.0.0.1). Its collector answers
// a click with an empty 202, as an older collector did, so a landing keeps its cookie on
// the host.

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const BUNDLE = readFileSync(fileURLToPath(new URL('../packages/tracker/dist/tracker.js', import.meta.url)));
const LOADS = Number(process.env.BENCH_TRACKER_LOADS ?? 25);
const SCRIPTS = {
  '/tracker.js': BUNDLE,
  '/empty.js': '',
  '/cookie-floor.js': 'try{document.cookie}catch{}',
  '/floor.js': 'try{document.cookie;localStorage._gr_id}catch{}',
  // What stands between the snippet and the cookie-only floor: reading the address, which
  // any attribution script must do on every page, and parsing the snippet's own text.
  '/address-floor.js': 'try{document.cookie;window.__a=location.search}catch{}',
  '/parsed.js': `try{document.cookie}catch{};window.__t=()=>{${BUNDLE}}`,
};
const STUB = '<script>window.gr=window.gr||function(){(gr.q=gr.q||[]).push(arguments)};</script>';

/** The company's site and the collector in one server: pages, the scripts, and 202 for clicks. */
function site() {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (SCRIPTS[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      res.end(SCRIPTS[path]);
    } else if (path.startsWith('/v1/tracking/')) {
      res.writeHead(202).end();
    } else {
      const script = new URL(req.url, 'http://x').searchParams.get('script') ?? 'tracker.js';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><html><head>${STUB}<script async src="/${script}" data-key="tly_pub_bench"></script></head><body>page</body></html>`,
      );
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Main-thread milliseconds of the script `name` on one fresh load of `url`. */
async function oneLoad(browser, url, name, prepare) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await prepare?.(page);
  await browser.startTracing(page, { categories: ['devtools.timeline'] });
  await page.goto(url);
  await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
  const trace = JSON.parse((await browser.stopTracing()).toString());
  await context.close();
  const events = trace.traceEvents.filter((e) => e.name === 'EvaluateScript' && e.args?.data?.url?.endsWith(`/${name}`));
  if (events.length !== 1) throw new Error(`${name}: ${events.length} EvaluateScript events on ${url}`);
  return events[0].dur / 1000;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * Rows of main-thread time at load: the baselines, then tracker.js on a page without a
 * referral (nothing stored), on a landing through a referral link, and on a later page of
 * that visitor.
 */
export async function trackerRows() {
  if (!existsSync(CHROMIUM)) {
    console.log(`tracker.js main thread: not measured, Chromium is missing (apt-get install -y chromium)`);
    return [];
  }
  const server = await site();
  const origin = `http://www.shop.co.uk:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP * 127.0.0.1'],
  });
  // A returning visitor: the landing's cookie and stored copy are already there.
  const returning = async (page) => {
    await page.goto(`${origin}/?red=alice`);
    await page.waitForFunction(() => document.cookie.includes('_gr_id'));
  };
  const cases = [
    ['baseline: an empty script', `${origin}/?script=empty.js`, 'empty.js'],
    ['baseline: one cookie read (cookie only)', `${origin}/?script=cookie-floor.js`, 'cookie-floor.js'],
    ['baseline: one cookie and one storage read', `${origin}/?script=floor.js`, 'floor.js'],
    ['baseline: one cookie read and the address', `${origin}/?script=address-floor.js`, 'address-floor.js'],
    ['baseline: one cookie read, tracker.js parsed, not run', `${origin}/?script=parsed.js`, 'parsed.js'],
    ['tracker.js: a page without a referral', `${origin}/pricing`, 'tracker.js'],
    ['tracker.js: a landing through a referral link', `${origin}/?red=alice&gr_uid=u1`, 'tracker.js'],
    ['tracker.js: a later page of a referred visitor', `${origin}/signup`, 'tracker.js', returning],
  ];
  const rows = [];
  try {
    // One load of each first, so Chromium's own first-time costs fall on no case.
    for (const [, url, name, prepare] of cases) await oneLoad(browser, url, name, prepare);
    // The cases take turns, load by load, so a busy moment of the machine falls on all of
    // them alike, and the ratios between rows hold on a shared machine.
    const times = cases.map(() => []);
    for (let i = 0; i < LOADS; i++) {
      for (const [c, [, url, name, prepare]] of cases.entries()) times[c].push(await oneLoad(browser, url, name, prepare));
    }
    for (const [c, [label]] of cases.entries()) {
      const sorted = times[c].sort((a, b) => a - b);
      const row = { name: label, loads: LOADS, p50Ms: quantile(sorted, 0.5), p90Ms: quantile(sorted, 0.9), maxMs: sorted.at(-1) };
      rows.push(row);
      const ms = (v) => v.toFixed(2).padStart(5);
      console.log(`${label.padEnd(64)} main thread  p50 ${ms(row.p50Ms)} ms  p90 ${ms(row.p90Ms)} ms  max ${ms(row.maxMs)} ms`);
    }
  } finally {
    await browser.close();
    server.close();
  }
  return rows;
}
