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

type Bounty = Answer<'/v1/bounties'>['data'][number];
type Submission = Answer<'/v1/bounties/{id}/submissions'>['data'][number];
type Kind = Bounty['attributes']['kind'];
type Metric = NonNullable<Bounty['attributes']['metric']>;

const DAY = 86_400;
const METRICS: Record<Metric, string> = { sales: 'Sales', leads: 'Sign-ups', revenue: 'Revenue' };
/** A day typed in a date field, as the Unix time of its UTC midnight. */
const unixOf = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);
const dayOf = (unix: number): string => new Date(unix * 1000).toISOString().slice(0, 10);

function targetWords(b: Bounty['attributes']): string {
  if (b.kind === 'submission') return `Approved submission (up to ${b.max_submissions} a partner)`;
  const target = Number(b.target);
  return b.metric === 'revenue'
    ? `${money(target, b.currency)} of revenue`
    : `${int(target)} ${METRICS[b.metric ?? 'sales'].toLowerCase()}`;
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
      title={bounty ? `Edit ${a?.name}` : 'New bounty'}
      confirm={bounty ? 'Save bounty' : 'Make bounty'}
      wide
      onClose={onClose}
      onConfirm={async (form) => {
        const currency = text(form, 'currency').trim().toUpperCase();
        const start = unixOf(text(form, 'starts'));
        const end = unixOf(text(form, 'ends')) + DAY;
        if (Number.isNaN(start) || Number.isNaN(end)) throw new Error('Give the first and the last day of the bounty.');
        const terms = {
          name: text(form, 'name').trim(),
          description: text(form, 'description').trim(),
          group_ids: form.getAll('group_ids').map(String),
          starts_at: start,
          ends_at: end,
          amount: parseMajor(text(form, 'amount'), currency, 'the reward'),
          currency,
          ...(kind === 'performance'
            ? {
                metric,
                target: metric === 'revenue' ? parseMajor(text(form, 'target'), currency, 'the target') : Number(text(form, 'target')),
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
        Name <span class="hint">(partners see it)</span>
        {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one form: typing starts in its first field */}
        <input name="name" required maxLength={100} value={a?.name} autoFocus />
      </label>
      <label>
        What to do <span class="hint">(optional)</span>
        <textarea name="description" maxLength={2000} rows={2} value={a?.description} />
      </label>
      <div class="fields">
        <label>
          Kind
          <select name="kind" value={kind} disabled={bounty !== undefined} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            <option value="performance">Performance: reach a target</option>
            <option value="submission">Submission: send proof for review</option>
          </select>
        </label>
        <label class="short">
          Reward
          <input name="amount" inputMode="decimal" required autocomplete="off" value={a && majorText(a.amount, a.currency)} />
        </label>
        <label class="short">
          Currency
          <input name="currency" required maxLength={3} pattern="[A-Za-z]{3}" placeholder="USD" value={a?.currency} autocomplete="off" />
        </label>
      </div>
      <div class="fields">
        <label>
          First day
          <input name="starts" type="date" required value={a && dayOf(a.starts_at)} />
        </label>
        <label>
          Last day
          <input name="ends" type="date" required value={a && dayOf(a.ends_at - DAY)} />
        </label>
      </div>
      {kind === 'performance' ? (
        <div class="fields">
          <label>
            Counts
            <select name="metric" value={metric} onChange={(e) => setMetric(e.currentTarget.value as Metric)}>
              <option value="sales">Sales (payments not refunded)</option>
              <option value="leads">Sign-ups</option>
              <option value="revenue">Revenue after refunds, in the reward's currency</option>
            </select>
          </label>
          <label class="short">
            Target
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
            Submissions a partner
            <input name="max_submissions" type="number" min={1} max={100} required value={a?.max_submissions ?? 1} />
          </label>
          <label class="short">
            URLs at most
            <input name="max_urls" type="number" min={0} max={20} required value={a?.max_urls ?? 5} />
          </label>
          <label class="short">
            Characters at most
            <input name="max_text" type="number" min={0} max={10000} required value={a?.max_text ?? 2000} />
          </label>
          <label class="check">
            <input name="requires_url" type="checkbox" checked={a?.requires_url} /> A URL is required
          </label>
        </div>
      )}
      <fieldset>
        <legend>For the groups (none ticked: every partner)</legend>
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
        <h1>Bounties</h1>
        <button type="button" onClick={() => setEditing('new')}>
          New bounty
        </button>
      </div>
      <p>
        A flat reward for reaching a target in a period, awarded once by your own records, or for a submission you approve. Both become a
        commission.
      </p>
      <Show loaded={loaded}>
        {({ bounties, groups }) => {
          const groupsById = byId(groups);
          const columns: Column<Bounty>[] = [
            { label: 'Name', cell: (b) => <a href={href(`/bounties/${b.id}`)}>{b.attributes.name}</a> },
            { label: 'Reward', cell: (b) => money(b.attributes.amount, b.attributes.currency), numeric: true },
            { label: 'For', cell: (b) => targetWords(b.attributes) },
            { label: 'Period', cell: (b) => `${dateTime(b.attributes.starts_at)} – ${dateTime(b.attributes.ends_at)}`, minor: true },
            {
              label: 'Groups',
              cell: (b) => b.attributes.group_ids.map((id) => groupsById[id]?.attributes.name ?? id).join(', ') || 'Every group',
              minor: true,
            },
            {
              label: 'Actions',
              cell: (b) => (
                <>
                  <button type="button" class="secondary" onClick={() => setEditing(b)} aria-label={`Edit ${b.attributes.name}`}>
                    Edit
                  </button>{' '}
                  <button type="button" class="secondary" onClick={() => archive(b)}>
                    {b.attributes.archived ? 'Restore' : 'Archive'}
                    <span class="visually-hidden"> {b.attributes.name}</span>
                  </button>
                </>
              ),
            },
          ];
          return (
            <>
              {bounties.length === 0 ? <p>No bounty yet.</p> : <Table caption="Bounties" columns={columns} rows={bounties} />}
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

const STATES: Record<Submission['attributes']['state'], string> = { pending: 'Waiting', approved: 'Approved', rejected: 'Rejected' };

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
        <a href={href('/bounties')}>All bounties</a>
      </p>
      <Show loaded={loaded}>
        {({ bounty, submissions, names }) => {
          const columns: Column<Submission>[] = [
            { label: 'Sent', cell: (s) => dateTime(s.attributes.created_at), minor: true },
            {
              label: 'Partner',
              cell: (s) => <a href={href(`/partners/${s.attributes.partner_id}`)}>{names[s.attributes.partner_id] ?? 'Partner'}</a>,
            },
            {
              label: 'Proof',
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
              label: 'State',
              cell: (s) =>
                s.attributes.reject_reason ? `${STATES[s.attributes.state]}: ${s.attributes.reject_reason}` : STATES[s.attributes.state],
            },
            {
              label: 'Decide',
              cell: (s) =>
                s.attributes.state === 'pending' && (
                  <>
                    <button type="button" onClick={() => decide(s, { state: 'approved' })}>
                      Approve
                    </button>{' '}
                    <button type="button" class="secondary" onClick={() => setRejecting(s)}>
                      Reject
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
                {money(bounty.attributes.amount, bounty.attributes.currency)} for: {targetWords(bounty.attributes)}.{' '}
                {bounty.attributes.description}
              </p>
              <h2>Submissions</h2>
              {submissions.length === 0 ? <p>No submission yet.</p> : <Table caption="Submissions" columns={columns} rows={waiting} />}
              {rejecting && (
                <Confirm
                  title="Reject the submission"
                  confirm="Reject"
                  danger
                  onClose={() => setRejecting(undefined)}
                  onConfirm={(form) => decide(rejecting, { state: 'rejected', reject_reason: text(form, 'reason').trim() })}
                >
                  <label>
                    Reason <span class="hint">(the partner reads it)</span>
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
