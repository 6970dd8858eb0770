// What the audit log records of each write route (docs/audit.md), worked out once from the
// route table: the action's name, the target's type and where its id is, and the read
// route whose answer is the target's before and after. Routes no person or token of a
// program calls are left out, each with its reason, which the sweep test reads.

import type { Route } from './route.js';

export interface AuditPlan {
  action: string;
  targetType: string;
  /** The path parameter naming the target; none: a new record, whose id the change returns. */
  targetParam: string | undefined;
  /** The read route of the target (JSON, one record): its answer is the snapshot. */
  read: Route | undefined;
  /** `read` takes the new record's id as `:id` (a create at /v1/xs read at /v1/xs/:id). */
  readsCreated: boolean;
}

/** Routes that change nothing a program's log should hold, and why. */
const EXEMPT: Readonly<Record<string, string>> = {
  'post /v1/groups/:id/preview': 'computes who a group would take, and changes nothing',
  'post /v1/auth/factors/passkey/options': "starts a passkey's registration (a challenge), and changes nothing",
  'post /v1/auth/passkey/options': "starts a passkey's proof (a challenge), and changes nothing",
};

/** Verbs that end a path (POST /v1/payout_runs/:id/approve); any other last segment names records. */
const VERBS = new Set([
  'approve',
  'send',
  'retry',
  'refresh',
  'paid',
  'cancel',
  'process',
  'rotate_secret',
  'test',
  'resend',
  'read',
  'onboarding',
  'order',
  'copy',
  'sign_out',
  'invitation',
  'password',
]);

const VERB_OF: Record<string, string> = { post: 'create', patch: 'update', delete: 'delete' };

const singular = (word: string): string =>
  word.endsWith('ies')
    ? `${word.slice(0, -3)}y`
    : /(ch|sh|x)es$/.test(word)
      ? word.slice(0, -2)
      : word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('settings')
        ? word.slice(0, -1)
        : word;

/** Why a route is not audited, or undefined when it is. */
export function exemption(r: Route): string | undefined {
  if (r.method === 'get') return 'a read';
  if (r.access === 'publishable') return "tracking: the snippet's clicks and conversions, with a publishable token";
  if (r.webhookBodyLimit) return "a billing or payout platform's signed webhook: its own log (billing events) keeps it";
  if (r.access === 'public') return 'open to anyone (signing in, applying, unsubscribing): no member, partner or token of a program';
  if (r.access === 'partner' && !r.path.startsWith('/v1/portal/partnerships/:id')) {
    return "a partner's own account, across their programs: no one program's log";
  }
  return EXEMPT[`${r.method} ${r.path}`];
}

/** The plan of an audited route, with the route table to find its read route in. */
export function auditPlan(r: Route, routes: readonly Route[]): AuditPlan {
  const segments = r.path.replace(/^\/v1\//, '').split('/');
  const last = segments.at(-1) ?? '';
  const verb = VERBS.has(last) ? last : (VERB_OF[r.method] ?? r.method);
  const nouns = segments.filter((s, i) => !s.startsWith(':') && !(i === segments.length - 1 && VERBS.has(s)));
  const noun = nouns.at(-1) ?? 'program';
  // A billing platform's secrets and credential are that platform's: stripe_secret, shopify_credential.
  const platform = nouns[0] === 'integrations' && nouns.length > 2 ? `${nouns[1]}_` : '';
  const targetType = platform + singular(noun);
  const nounAt = segments.lastIndexOf(noun);
  const param = segments[nounAt + 1]?.startsWith(':') ? segments[nounAt + 1]?.slice(1) : undefined;
  const plan = { action: `${targetType}.${verb}`, targetType, targetParam: param };
  // A deletion keeps no snapshot: it may be an erasure (DELETE /v1/referrals/:id), and the
  // entry must not keep what it erased.
  if (r.method === 'delete') return { ...plan, read: undefined, readsCreated: false };
  const reads = (path: string) =>
    routes.find((g) => g.method === 'get' && g.path === path && !g.list && !g.query && !g.produces && g.access === r.access);
  if (param === undefined && r.method === 'post' && !VERBS.has(last)) {
    // The new record's own read: under the create's path (/v1/partners/:id), by its noun for a
    // child made under its parent (/v1/rewards/:id for POST /v1/groups/:id/rewards), or beside
    // it (/v1/resources/:id for POST /v1/resources/files). Never the parent's: it is not the record made.
    const parent = segments.slice(0, -1).join('/');
    const paths = [`${r.path}/:id`, `/v1/${noun}/:id`, ...(parent !== '' && !parent.includes(':') ? [`/v1/${parent}/:id`] : [])];
    const created = paths.map(reads).find((g) => g !== undefined);
    if (created) return { ...plan, read: created, readsCreated: true };
  }
  // The nearest read above the path: /v1/payout_runs/:id for its approve, /v1/program for its settings.
  for (let n = segments.length; n > 0; n--) {
    const read = reads(`/v1/${segments.slice(0, n).join('/')}`);
    if (read) return { ...plan, read, readsCreated: false };
  }
  return { ...plan, read: undefined, readsCreated: false };
}
