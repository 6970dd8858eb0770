// /demo/: a landing page and a signup page that use the snippet against this collector
// with the first program, so a new user can follow a referral link and sign up right
// after `npm start`. Served only when the demo is on (config.ts: DEMO). Each page's
// inline script and style is a constant, allowed by its hash in the page's
// Content-Security-Policy, so no other inline script can run there.

import type Router from '@koa/router';
import type { Context } from 'koa';
import { escapeHtml } from '../../platform/html.js';
import { pagePolicy } from '../../platform/http/security-headers.js';

export interface Demo {
  /** A publishable token of the program the pages belong to. */
  token: string;
  programName: string;
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #1d2433; }
  .card { border: 1px solid #d8dde8; border-radius: 8px; padding: 1rem 1.25rem; margin: 1.5rem 0; }
  code { background: #f2f4f8; padding: 0 .25rem; border-radius: 4px; }
  button, input { font: inherit; padding: .4rem .7rem; }
`;

/** The installation stub of the snippet: gr() queues calls until tracker.js loads. */
const STUB = 'window.gr=window.gr||function(){(gr.q=gr.q||[]).push(arguments)};';

const SHOW_REFERRAL = `
gr('ready', function (r) {
  document.getElementById('referral').textContent = r ? 'gr_id ' + r.gr_id + (r.pk ? ', partner ' + r.pk : '') : 'none (open a referral link: /demo/?red=<key>)';
});
`;

const SIGNUP = `
document.getElementById('signup').addEventListener('submit', function (e) {
  e.preventDefault();
  var email = e.target.email.value;
  var out = document.getElementById('result');
  out.textContent = 'Recording…';
  gr('ready', function () {
    gr('track', 'conversion', {email}).then(function (r) {
      out.textContent = r ? 'Conversion recorded: referral ' + r.id + ' (' + r.state + '). See GET /v1/referrals.'
                          : 'No referral on this browser, so nothing was sent. Open a referral link first.';
    });
  });
});
`;

interface Page {
  title: string;
  body: (demo: Demo) => string;
  /** Inline scripts at the end of the body, after the page's own markup. */
  scripts: readonly string[];
}

const LANDING: Page = {
  title: 'Welcome',
  body: (demo) => `<h1>${escapeHtml(demo.programName)}</h1>
<p>This is the demo landing page. A partner's referral link points here with
<code>?red=&lt;key&gt;</code>; the snippet records the referral in a first-party cookie.</p>
<p><a href="/demo/signup">Sign up →</a></p>`,
  scripts: [],
};

const SIGNUP_PAGE: Page = {
  title: 'Sign up',
  body: () => `<h1>Sign up</h1>
<form id="signup">
  <label>E-mail <input type="email" name="email" required placeholder="you@example.com"></label>
  <button>Create account</button>
</form>
<p id="result"></p>`,
  scripts: [SIGNUP],
};

function render(demo: Demo, page: Page): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · ${escapeHtml(demo.programName)}</title>
<link rel="icon" href="/favicon.ico">
<style>${STYLE}</style>
<script>${STUB}</script>
<script async src="/tracker.js" data-key="${escapeHtml(demo.token)}"></script>
</head>
<body>
${page.body(demo)}
<div class="card">Referral on this browser: <code id="referral">checking…</code></div>
${[SHOW_REFERRAL, ...page.scripts].map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

function serve(demo: Demo, page: Page) {
  const html = render(demo, page);
  const policy = pagePolicy({ scripts: [STUB, SHOW_REFERRAL, ...page.scripts], styles: [STYLE] });
  return (ctx: Context) => {
    ctx.set('Content-Security-Policy', policy);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };
}

export function mountDemo(router: Router, demo: Demo | undefined): void {
  if (!demo) return;
  // A route for /demo also matches /demo/: redirect only the bare path.
  router.get('/demo', (ctx, next) => (ctx.path === '/demo' ? ctx.redirect('/demo/') : next()));
  router.get('/demo/', serve(demo, LANDING));
  router.get('/demo/signup', serve(demo, SIGNUP_PAGE));
}
