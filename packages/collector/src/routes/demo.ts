// /demo/: a landing page and a signup page that use the snippet against this collector
// with the first program, so a new user can follow a referral link and sign up right
// after `npm start`.

import type Router from '@koa/router';

export interface Demo {
  /** A publishable token of the program the pages belong to. */
  token: string;
  programName: string;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(demo: Demo, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${escape(demo.programName)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #1d2433; }
  .card { border: 1px solid #d8dde8; border-radius: 8px; padding: 1rem 1.25rem; margin: 1.5rem 0; }
  code { background: #f2f4f8; padding: 0 .25rem; border-radius: 4px; }
  button, input { font: inherit; padding: .4rem .7rem; }
</style>
<script>window.gr=window.gr||function(){(gr.q=gr.q||[]).push(arguments)};</script>
<script async src="/tracker.js" data-key="${escape(demo.token)}"></script>
</head>
<body>
${body}
<div class="card">Referral on this browser: <code id="referral">checking…</code></div>
<script>
gr('ready', function (r) {
  document.getElementById('referral').textContent = r ? 'gr_id ' + r.gr_id + (r.pk ? ', partner ' + r.pk : '') : 'none (open a referral link: /demo/?red=<key>)';
});
</script>
</body>
</html>
`;
}

export function mountDemo(router: Router, demo: Demo | undefined): void {
  if (!demo) return;
  // A route for /demo also matches /demo/: redirect only the bare path.
  router.get('/demo', (ctx, next) => (ctx.path === '/demo' ? ctx.redirect('/demo/') : next()));
  router.get('/demo/', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(
      demo,
      'Welcome',
      `<h1>${escape(demo.programName)}</h1>
<p>This is the demo landing page. A partner's referral link points here with
<code>?red=&lt;key&gt;</code>; the snippet records the referral in a first-party cookie.</p>
<p><a href="/demo/signup">Sign up →</a></p>`,
    );
  });
  router.get('/demo/signup', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(
      demo,
      'Sign up',
      `<h1>Sign up</h1>
<form id="signup">
  <input type="email" name="email" required placeholder="you@example.com">
  <button>Create account</button>
</form>
<p id="result"></p>
<script>
document.getElementById('signup').addEventListener('submit', function (e) {
  e.preventDefault();
  var email = e.target.email.value;
  var out = document.getElementById('result');
  out.textContent = 'Recording…';
  gr('ready', function () {
    gr.track(email).then(function (r) {
      out.textContent = r ? 'Conversion recorded: referral ' + r.id + ' (' + r.state + '). See GET /v1/referrals.'
                          : 'No referral on this browser, so nothing was sent. Open a referral link first.';
    });
  });
});
</script>`,
    );
  });
}
