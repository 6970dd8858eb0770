// Bounties (docs/bounties.md): the program's bounties, made and edited in one dialog
// (dates typed as days, UTC; the amount in major units, kept in minor units by its
// currency's exponent), archived; and a bounty's submissions to approve or reject.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Confirm, text } from '../../common/forms.js';
import { dateTime, int, majorText, money, parseMajor } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Show, Table, type Column } from '../../common/ui.js';
import { allGroups, byId, type Group } from '../groups.js';
import { href } from '../session.js';
import { t } from './words.js';

type Bounty = Answer<'/v1/bounties'>['data'][number];
type Submission = Answer<'/v1/bounties/{id}/submissions'>['data'][number];
type Kind = Bounty['attributes']['kind'];
type Metric = NonNullable<Bounty['attributes']['metric']>;

const DAY = 86_400;
/** A day typed in a date field, as the Unix time of its UTC midnight. */
const unixOf = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);
const dayOf = (unix: number): string => new Date(unix * 1000).toISOString().slice(0, 10);

function targetWords(b: Bounty['attributes']): string {
  if (b.kind === 'submission') return t('target.submission', { count: b.max_submissions ?? 1 });
  const target = Number(b.target);
  if (b.metric === 'revenue') return t('target.revenue', { amount: money(target, b.currency) });
  return b.metric === 'leads' ? t('target.leads', { count: target, n: int(target) }) : t('target.sales', { count: target, n: int(target) });
}

/** The dialog that makes a bounty, or edits `bounty`. */
function BountyForm({
  bounty,
  groups,
  onClose,
  saved,
}: {
  bounty?: Bounty;
  groups: readonly Group[];
  onClose: () => void;
  saved: () => void;
}) {
  const a = bounty?.attributes;
  const [kind, setKind] = useState<Kind>(a?.kind ?? 'performance');
  const [metric, setMetric] = useState<Metric>(a?.metric ?? 'sales');
  return (
    <Confirm
      title={bounty ? t('editTitle', { name: a?.name ?? '' }) : t('new')}
      confirm={bounty ? t('save') : t('make')}
      wide
      onClose={onClose}
      onConfirm={async (form) => {
        const currency = text(form, 'currency').trim().toUpperCase();
        const start = unixOf(text(form, 'starts'));
        const end = unixOf(text(form, 'ends')) + DAY;
        if (Number.isNaN(start) || Number.isNaN(end)) throw new Error(t('noDays'));
        const terms = {
          name: text(form, 'name').trim(),
          description: text(form, 'description').trim(),
          group_ids: form.getAll('group_ids').map(String),
          starts_at: start,
          ends_at: end,
          amount: parseMajor(text(form, 'amount'), currency, t('theReward')),
          currency,
          ...(kind === 'performance'
            ? {
                metric,
                target: metric === 'revenue' ? parseMajor(text(form, 'target'), currency, t('theTarget')) : Number(text(form, 'target')),
              }
            : {
                max_submissions: Number(text(form, 'max_submissions')),
                max_urls: Number(text(form, 'max_urls')),
                max_text: Number(text(form, 'max_text')),
                requires_url: form.get('requires_url') === 'on',
              }),
        };
        if (bounty) await api.PATCH('/v1/bounties/{id}', { params: { path: { id: bounty.id } }, body: terms });
        else await api.POST('/v1/bounties', { body: { ...terms, kind } });
        saved();
      }}
    >
      <label>
        {t('name')} <span class="hint">{t('nameHint')}</span>
        {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one form: typing starts in its first field */}
        <input name="name" required maxLength={100} value={a?.name} autoFocus />
      </label>
      <label>
        {t('whatToDo')} <span class="hint">{t('optional')}</span>
        <textarea name="description" maxLength={2000} rows={2} value={a?.description} />
      </label>
      <div class="fields">
        <label>
          {t('kind')}
          <select name="kind" value={kind} disabled={bounty !== undefined} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            <option value="performance">{t('performance')}</option>
            <option value="submission">{t('submission')}</option>
          </select>
        </label>
        <label class="short">
          {t('reward')}
          <input name="amount" inputMode="decimal" required autocomplete="off" value={a && majorText(a.amount, a.currency)} />
        </label>
        <label class="short">
          {t('currency')}
          <input name="currency" required maxLength={3} pattern="[A-Za-z]{3}" placeholder="USD" value={a?.currency} autocomplete="off" />
        </label>
      </div>
      <div class="fields">
        <label>
          {t('firstDay')}
          <input name="starts" type="date" required value={a && dayOf(a.starts_at)} />
        </label>
        <label>
          {t('lastDay')}
          <input name="ends" type="date" required value={a && dayOf(a.ends_at - DAY)} />
        </label>
      </div>
      {kind === 'performance' ? (
        <div class="fields">
          <label>
            {t('counts')}
            <select name="metric" value={metric} onChange={(e) => setMetric(e.currentTarget.value as Metric)}>
              <option value="sales">{t('metrics.sales')}</option>
              <option value="leads">{t('metrics.leads')}</option>
              <option value="revenue">{t('metrics.revenue')}</option>
            </select>
          </label>
          <label class="short">
            {t('targetLabel')}
            <input
              name="target"
              inputMode="decimal"
              required
              autocomplete="off"
              value={a?.target == null ? undefined : metric === 'revenue' ? majorText(a.target, a.currency) : String(a.target)}
            />
          </label>
        </div>
      ) : (
        <div class="fields">
          <label class="short">
            {t('maxSubmissions')}
            <input name="max_submissions" type="number" min={1} max={100} required value={a?.max_submissions ?? 1} />
          </label>
          <label class="short">
            {t('maxUrls')}
            <input name="max_urls" type="number" min={0} max={20} required value={a?.max_urls ?? 5} />
          </label>
          <label class="short">
            {t('maxText')}
            <input name="max_text" type="number" min={0} max={10000} required value={a?.max_text ?? 2000} />
          </label>
          <label class="check">
            <input name="requires_url" type="checkbox" checked={a?.requires_url} /> {t('requiresUrl')}
          </label>
        </div>
      )}
      <fieldset>
        <legend>{t('groupsLegend')}</legend>
        {groups.map((g) => (
          <label class="check">
            <input type="checkbox" name="group_ids" value={g.id} checked={a?.group_ids.includes(g.id)} /> {g.attributes.name}
          </label>
        ))}
      </fieldset>
    </Confirm>
  );
}

export function Bounties() {
  const loaded = useLoad(async (signal) => {
    const [bounties, groups] = await Promise.all([
      api.GET('/v1/bounties', { params: { query: { per_page: 50 } }, signal }),
      allGroups(signal),
    ]);
    return { bounties: bounties.data, groups };
  }, 'bounties');
  const [editing, setEditing] = useState<Bounty | 'new' | undefined>();
  const archive = async (b: Bounty) => {
    await api.PATCH('/v1/bounties/{id}', { params: { path: { id: b.id } }, body: { archived: !b.attributes.archived } });
    loaded.reload();
  };
  return (
    <section>
      <div class="panel-head">
        <h1>{t('title')}</h1>
        <button type="button" onClick={() => setEditing('new')}>
          {t('new')}
        </button>
      </div>
      <p>{t('intro')}</p>
      <Show loaded={loaded}>
        {({ bounties, groups }) => {
          const groupsById = byId(groups);
          const columns: Column<Bounty>[] = [
            { label: t('name'), cell: (b) => <a href={href(`/bounties/${b.id}`)}>{b.attributes.name}</a> },
            { label: t('reward'), cell: (b) => money(b.attributes.amount, b.attributes.currency), numeric: true },
            { label: t('for'), cell: (b) => targetWords(b.attributes) },
            { label: t('period'), cell: (b) => `${dateTime(b.attributes.starts_at)} – ${dateTime(b.attributes.ends_at)}`, minor: true },
            {
              label: t('groups'),
              cell: (b) => b.attributes.group_ids.map((id) => groupsById[id]?.attributes.name ?? id).join(', ') || t('everyGroup'),
              minor: true,
            },
            {
              label: t('actions'),
              cell: (b) => (
                <>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => setEditing(b)}
                    aria-label={t('editTitle', { name: b.attributes.name })}
                  >
                    {t('edit')}
                  </button>{' '}
                  <button type="button" class="secondary" onClick={() => archive(b)}>
                    {b.attributes.archived ? t('restore') : t('archive')}
                    <span class="visually-hidden"> {b.attributes.name}</span>
                  </button>
                </>
              ),
            },
          ];
          return (
            <>
              {bounties.length === 0 ? <p>{t('none')}</p> : <Table caption={t('title')} columns={columns} rows={bounties} />}
              {editing && (
                <BountyForm
                  bounty={editing === 'new' ? undefined : editing}
                  groups={groups}
                  onClose={() => setEditing(undefined)}
                  saved={loaded.reload}
                />
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
}

const stateOf = (s: Submission) => t(`states.${s.attributes.state}`);

/** One bounty's submissions, the waiting ones first to decide. */
export function BountyPage({ id }: { id: string }) {
  const loaded = useLoad(async (signal) => {
    const path = { id };
    const [bounty, submissions, partners] = await Promise.all([
      api.GET('/v1/bounties/{id}', { params: { path }, signal }),
      api.GET('/v1/bounties/{id}/submissions', { params: { path, query: { per_page: 50 } }, signal }),
      api.GET('/v1/partners', { params: { query: { per_page: 50 } }, signal }),
    ]);
    const names = Object.fromEntries(partners.data.map((p) => [p.id, p.attributes.name]));
    return { bounty: bounty.data, submissions: submissions.data, names };
  }, `bounty:${id}`);
  const [rejecting, setRejecting] = useState<Submission | undefined>();
  const decide = async (s: Submission, body: { state: 'approved' | 'rejected'; reject_reason?: string }) => {
    await api.PATCH('/v1/bounties/{id}/submissions/{submission}', { params: { path: { id, submission: s.id } }, body });
    loaded.reload();
  };
  return (
    <section>
      <p>
        <a href={href('/bounties')}>{t('all')}</a>
      </p>
      <Show loaded={loaded}>
        {({ bounty, submissions, names }) => {
          const columns: Column<Submission>[] = [
            { label: t('sent'), cell: (s) => dateTime(s.attributes.created_at), minor: true },
            {
              label: t('partner'),
              cell: (s) => <a href={href(`/partners/${s.attributes.partner_id}`)}>{names[s.attributes.partner_id] ?? t('partner')}</a>,
            },
            {
              label: t('proof'),
              cell: (s) => (
                <>
                  {s.attributes.urls.map((u) => (
                    <p>
                      <a href={u} rel="noopener noreferrer nofollow" target="_blank">
                        {u}
                      </a>
                    </p>
                  ))}
                  {s.attributes.text && <p>{s.attributes.text}</p>}
                </>
              ),
            },
            {
              label: t('state'),
              cell: (s) => (s.attributes.reject_reason ? `${stateOf(s)}: ${s.attributes.reject_reason}` : stateOf(s)),
            },
            {
              label: t('decide'),
              cell: (s) =>
                s.attributes.state === 'pending' && (
                  <>
                    <button type="button" onClick={() => decide(s, { state: 'approved' })}>
                      {t('approve')}
                    </button>{' '}
                    <button type="button" class="secondary" onClick={() => setRejecting(s)}>
                      {t('reject')}
                    </button>
                  </>
                ),
            },
          ];
          const waiting = [...submissions].sort(
            (x, y) => Number(y.attributes.state === 'pending') - Number(x.attributes.state === 'pending'),
          );
          return (
            <>
              <h1>{bounty.attributes.name}</h1>
              <p>
                {t('rewardFor', {
                  amount: money(bounty.attributes.amount, bounty.attributes.currency),
                  target: targetWords(bounty.attributes),
                })}{' '}
                {bounty.attributes.description}
              </p>
              <h2>{t('submissions')}</h2>
              {submissions.length === 0 ? (
                <p>{t('noSubmissions')}</p>
              ) : (
                <Table caption={t('submissions')} columns={columns} rows={waiting} />
              )}
              {rejecting && (
                <Confirm
                  title={t('rejectTitle')}
                  confirm={t('reject')}
                  danger
                  onClose={() => setRejecting(undefined)}
                  onConfirm={(form) => decide(rejecting, { state: 'rejected', reject_reason: text(form, 'reason').trim() })}
                >
                  <label>
                    {t('reason')} <span class="hint">{t('reasonHint')}</span>
                    {/* biome-ignore lint/a11y/noAutofocus: the dialog asks this one thing */}
                    <input name="reason" required maxLength={500} autoFocus />
                  </label>
                </Confirm>
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
}
