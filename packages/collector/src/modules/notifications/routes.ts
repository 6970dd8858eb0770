// Notifications' routes: the one-click unsubscribe (RFC 8058) and each person's preferences.
// GET on the unsubscribe link only shows a page with a button (link scanners follow GETs);
// the POST, from that button or from the mail client's one-click, turns the kind off.

import { z } from 'zod';
import { route } from '../../api/route.js';
import { escapeHtml } from '../../platform/html.js';
import { one, resource } from '../../platform/http/schemas.js';
import { SELF_FORM_POLICY } from '../../platform/http/security-headers.js';
import { translate } from './i18n.js';
import { OWNER_KINDS, PARTNER_KINDS, type Person } from './kinds.js';
import { kindLabel } from './letter.js';
import * as repo from './repo.js';
import { preferences, setPreferences, unsubscribe, unsubscribeTarget } from './service.js';

const tokenQuery = z.strictObject({ token: z.string().min(1).max(200).meta({ description: "The token of the message's link" }) });

const kindsShape = (kinds: readonly string[]) => Object.fromEntries(kinds.map((k) => [k, z.boolean()]));
const partnerPreferences = resource('notification_preferences', kindsShape(PARTNER_KINDS));
const ownerPreferences = resource('notification_preferences', kindsShape(OWNER_KINDS));
const changes = (kinds: readonly string[]) => z.strictObject(Object.fromEntries(kinds.map((k) => [k, z.boolean().optional()])));

/**
 * A small page of our own, in English (the token says nothing of the person's language).
 * Its button's form posts to this origin: the site-wide policy's form-action 'none' would stop it.
 */
const page = (title: string, body: string) => ({
  status: 200,
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': SELF_FORM_POLICY },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
});
const en = translate('en');

const answer = (id: string, prefs: object) => ({
  status: 200,
  body: { data: { id, type: 'notification_preferences', attributes: prefs } },
});

export const notificationRoutes = [
  route({
    method: 'get',
    path: '/v1/notifications/unsubscribe',
    summary: "An e-mail's unsubscribe link: a page with a button that stops this kind of message (the GET itself changes nothing)",
    access: 'public',
    query: tokenQuery,
    status: 200,
    produces: 'text/html',
    async handle({ db, query }) {
      const target = await unsubscribeTarget(db, query.token);
      const action = `/v1/notifications/unsubscribe?token=${encodeURIComponent(query.token)}`;
      return page(
        'Stop these e-mails?',
        `<p>You will no longer get e-mails of this kind: ${escapeHtml(kindLabel(en, target.kind))}.</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  }),
  route({
    method: 'post',
    path: '/v1/notifications/unsubscribe',
    summary: 'One-click unsubscribe (RFC 8058, body `List-Unsubscribe=One-Click`): stops this kind of message for its recipient',
    access: 'public',
    query: tokenQuery,
    status: 200,
    produces: 'text/html',
    async handle({ db, query, now }) {
      const target = await unsubscribe(db, query.token, now);
      return page(
        'Unsubscribed',
        `<p>You will no longer get e-mails of this kind: ${escapeHtml(kindLabel(en, target.kind))}. Your preferences can turn them on again.</p>`,
      );
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/notifications',
    summary: 'Which e-mails the signed-in partner gets, per kind (in every program they joined)',
    access: 'partner',
    status: 200,
    response: one(partnerPreferences),
    async handle({ db, account }) {
      const id = account?.id ?? '';
      return answer(id, await preferences(db, 'partner', await repo.partnersOfAccount(db, id)));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/portal/notifications',
    summary: 'Turn kinds of e-mail on (true) or off (false) for the signed-in partner',
    access: 'partner',
    body: changes(PARTNER_KINDS),
    status: 200,
    response: one(partnerPreferences),
    async handle({ db, account, body, now }) {
      const id = account?.id ?? '';
      return answer(id, await setPreferences(db, 'partner', await repo.partnersOfAccount(db, id), body, now));
    },
  }),
  route({
    method: 'get',
    path: '/v1/notifications/preferences',
    summary: 'Which e-mails the signed-in owner gets, per kind (in every program of theirs)',
    access: 'session',
    status: 200,
    response: one(ownerPreferences),
    async handle({ db, session }) {
      const id = session?.user_id ?? '';
      return answer(id, await preferences(db, OWNER, [id]));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/notifications/preferences',
    summary: 'Turn kinds of e-mail on (true) or off (false) for the signed-in owner',
    access: 'session',
    role: 'admin',
    body: changes(OWNER_KINDS),
    status: 200,
    response: one(ownerPreferences),
    async handle({ db, session, body, now }) {
      const id = session?.user_id ?? '';
      return answer(id, await setPreferences(db, OWNER, [id], body, now));
    },
  }),
];

const OWNER: Person = 'owner';
