// Partner groups: the list (each group's partners and rewards in words) and making one;
// a group's own page with its rewards (added and changed in reward-editor.tsx's dialog; the
// program's own rate only read here, changed in Settings), a preview of what it pays for a
// payment, its rules and page, and its move rules. docs/rewards.md is the contract.

import { useLocation, useRoute } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Confirm, text, useSubmit, Saving } from '../../common/forms.js';
import { int, majorText, money, parseMajor } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Failure, Show, Table, type Column } from '../../common/ui.js';
import { allGroups, type Group, type Reward } from '../groups.js';
import { RewardDialog } from './reward-editor.js';
import { RuleFields, rulesFrom } from '../rules.js';
import { href } from '../session.js';

type Program = Answer<'/v1/program'>['data']['attributes'];
type MoveRule = Group['attributes']['move_rules'][number];
type Metric = 'customers' | 'revenue' | 'commissions';

/** Every reward of the program, or of one group (at most 100 a group; the API pages them by 50). */
async function allRewards(signal: AbortSignal, groupId?: string): Promise<Reward[]> {
  const all: Reward[] = [];
  for (let after: string | undefined; ; ) {
    const query = { per_page: 50, starting_after: after, ...(groupId ? { group_id_eq: groupId } : {}) };
    const page = await api.GET('/v1/rewards', { params: { query }, signal });
    all.push(...page.data);
    const last = page.data.at(-1);
    if (!page.meta.pagination.has_more || !last) break;
    after = last.id;
  }
  const order = { sale: 0, lead: 1, click: 2 };
  return all.sort(
    (a, b) =>
      Number(b.attributes.base) - Number(a.attributes.base) ||
      order[a.attributes.event] - order[b.attributes.event] ||
      a.attributes.position - b.attributes.position ||
      a.attributes.created_at - b.attributes.created_at,
  );
}

/** A group's partners, counted up to a page of 50 (the API has no totals): "50+" beyond. */
async function partnerCount(groupId: string, signal: AbortSignal): Promise<string> {
  const page = await api.GET('/v1/partnerships', { params: { query: { group_id_eq: groupId, per_page: 50 } }, signal });
  return `${int(page.data.length)}${page.meta.pagination.has_more ? '+' : ''}`;
}

async function partnerCounts(groups: readonly Group[], signal: AbortSignal): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all(groups.map(async (g) => [g.id, await partnerCount(g.id, signal)] as const)));
}

const EVENT_WORDS = { sale: 'a payment', lead: 'a sign-up', click: 'clicks' } as const;

const applications = (g: Group, program: Program | undefined): string => {
  if (!g.attributes.takes_applications) return 'not taken';
  const auto = g.attributes.auto_accept ?? program?.auto_accept;
  return auto ? 'taken, accepted at once' : 'taken, accepted by hand';
};

function NewGroup({ onClose }: { onClose: () => void }) {
  const { route } = useLocation();
  return (
    <Confirm
      title="New group"
      confirm="Make group"
      onClose={onClose}
      onConfirm={async (form) => {
        const name = text(form, 'name').trim();
        // Without an address, the API makes one from the name ("VIP partners" is vip-partners).
        const slug = text(form, 'slug').trim();
        const made = await api.POST('/v1/groups', { body: { name, ...(slug ? { slug } : {}) } });
        route(href(`/groups/${made.data.id}`));
      }}
    >
      <label>
        Name <span class="hint">(partners read it: VIP, Newsletters, Agencies)</span>
        {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one form: typing starts in its first field */}
        <input name="name" required maxLength={100} autoFocus />
      </label>
      <label>
        Address of its page <span class="hint">(/p/your-program/…/; empty: made from the name)</span>
        <input name="slug" pattern="[a-z0-9][a-z0-9_\-]{1,63}" maxLength={64} spellcheck={false} />
      </label>
      <p class="hint">It starts with no rewards: add them on its page, then move partners into it from theirs.</p>
    </Confirm>
  );
}

export function Groups() {
  const [adding, setAdding] = useState(false);
  const loaded = useLoad(async (signal) => {
    const [groups, rewards, program] = await Promise.all([allGroups(signal), allRewards(signal), api.GET('/v1/program', { signal })]);
    return { groups, rewards, program: program.data.attributes };
  }, 'groups');
  const ids = loaded.data?.groups.map((g) => g.id) ?? [];
  const counts = useLoad(loaded.data ? (signal) => partnerCounts(loaded.data!.groups, signal) : null, ids.join(','));
  return (
    <section>
      <div class="page-head">
        <h1>Groups</h1>
        <button type="button" onClick={() => setAdding(true)}>
          New group
        </button>
      </div>
      <p class="hint">
        Each partner is in one group, whose rewards say what they earn: for a payment, a sign-up or their clicks, with conditions. A group
        can move its partners on to another once they reach a threshold.
      </p>
      <Show loaded={loaded}>
        {({ groups, rewards, program }) => {
          const columns: Column<Group>[] = [
            {
              label: 'Group',
              cell: (g) => (
                <>
                  <a href={href(`/groups/${g.id}`)}>{g.attributes.name}</a> {g.attributes.default && <span class="tag">default</span>}
                </>
              ),
              text: (g) => g.attributes.name,
            },
            {
              label: 'Partners',
              numeric: true,
              cell: (g) => counts.data?.[g.id] ?? '…',
              text: (g) => counts.data?.[g.id] ?? '',
            },
            {
              label: 'Rewards',
              cell: (g) => {
                const mine = rewards.filter((r) => r.attributes.group_id === g.id);
                return mine.length ? (
                  <span class="wrap">{mine.map((r) => r.attributes.description).join('\n')}</span>
                ) : (
                  <span class="warn">none: its partners earn nothing</span>
                );
              },
              text: (g) =>
                rewards
                  .filter((r) => r.attributes.group_id === g.id)
                  .map((r) => r.attributes.description)
                  .join('; '),
            },
            { label: 'Applications', cell: (g) => applications(g, program), text: (g) => applications(g, program) },
          ];
          return (
            <>
              <Table caption="Groups" columns={columns} rows={groups} csv="groups" />
              {groups.length < 2 && (
                <Empty title="Only the default group so far">
                  <p>
                    Every partner is in it, and it pays the program's rate. Make a group to pay some partners differently: a higher rate for
                    your best ones, an amount per sign-up, a bonus on one product for a year. Partners then move into it from their page, by
                    a move rule, or by applying on the group's own page.
                  </p>
                  <button type="button" class="secondary" onClick={() => setAdding(true)}>
                    Make a group
                  </button>
                </Empty>
              )}
            </>
          );
        }}
      </Show>
      {adding && <NewGroup onClose={() => setAdding(false)} />}
    </section>
  );
}

/** What a partner of the group earns for one payment: the API's answer, in words. */
function Preview({ groupId, currency }: { groupId: string; currency: string }) {
  const [answer, setAnswer] = useState<{ amount: number; currency: string; description: string } | null>(null);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    const get = (n: string) => text(form, n).trim();
    const code = get('currency').toUpperCase();
    setAnswer(null);
    const month = Number(get('month'));
    const got = await api.POST('/v1/groups/{id}/preview', {
      params: { path: { id: groupId } },
      body: {
        amount: parseMajor(get('amount'), code),
        currency: code,
        month,
        ...(get('product_id') ? { product_id: get('product_id') } : {}),
        ...(get('customer_country') ? { customer_country: get('customer_country').toUpperCase() } : {}),
      },
    });
    setAnswer(got.data.attributes);
  });
  return (
    <form class="panel preview" onSubmit={onSubmit} aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <p class="hint">What a partner in this group earns for one payment of a customer they referred (before any totals of their own).</p>
      <div class="row">
        <label>
          Payment amount
          <input name="amount" type="number" min={0} step="any" inputMode="decimal" required defaultValue="49" />
        </label>
        <label>
          Currency
          <input name="currency" required maxLength={3} pattern="[A-Za-z]{3}" spellcheck={false} defaultValue={currency} />
        </label>
      </div>
      <div class="row">
        <label>
          The customer's month <span class="hint">(1: their first payment)</span>
          <input name="month" type="number" min={1} max={1200} required defaultValue="1" />
        </label>
        <label>
          Product <span class="hint">(optional: its id, such as prod_…)</span>
          <input name="product_id" maxLength={200} spellcheck={false} />
        </label>
      </div>
      <label>
        Customer's country <span class="hint">(optional: such as DE)</span>
        <input name="customer_country" maxLength={2} pattern="[A-Za-z]{2}" spellcheck={false} />
      </label>
      {error !== undefined && <Failure error={error} />}
      <div role="status" class="preview-answer">
        {answer && (
          <p class="notice">
            A partner earns <strong>{money(answer.amount, answer.currency)}</strong>: {answer.description}
          </p>
        )}
      </div>
      <button type="submit" disabled={busy}>
        Preview
      </button>
    </form>
  );
}

function GroupSettings({ group, program, saved }: { group: Group; program: Program; saved: () => void }) {
  const a = group.attributes;
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    const rules = rulesFrom(form, true);
    const auto = text(form, 'auto_accept');
    await api.PATCH('/v1/groups/{id}', {
      params: { path: { id: group.id } },
      body: {
        name: text(form, 'name').trim(),
        slug: text(form, 'slug').trim(),
        hold_days: rules.hold_days,
        minimum_payout: rules.minimum_payout,
        auto_accept: auto === '' ? null : auto === 'yes',
        takes_applications: form.get('takes_applications') === 'on',
      },
    });
    setDone(true);
    saved();
  });
  const pageUrl = program.slug && program.page_enabled ? `${location.origin}/p/${program.slug}/${a.slug}/` : null;
  return (
    <form class="panel" onSubmit={onSubmit} aria-labelledby="group-settings-title">
      <h2 id="group-settings-title">Settings</h2>
      <div class="row">
        <label>
          Name
          <input name="name" required maxLength={100} defaultValue={a.name} />
        </label>
        <label>
          Address of its page <span class="hint">(/p/{program.slug ?? 'your-program'}/…/)</span>
          <input name="slug" required pattern="[a-z0-9][a-z0-9_\-]{1,63}" maxLength={64} spellcheck={false} defaultValue={a.slug} />
        </label>
      </div>
      <RuleFields values={a} inherit={program} recurring={false} initial />
      <label>
        Applications to it
        {/* `selected` as where it starts (a select has no defaultValue): a render that follows keeps what is chosen. */}
        <select name="auto_accept">
          <option value="" selected={a.auto_accept === null}>
            as the program says (now: {program.auto_accept ? 'accepted at once' : 'accepted by hand'})
          </option>
          <option value="yes" selected={a.auto_accept === true}>
            accepted at once
          </option>
          <option value="no" selected={a.auto_accept === false}>
            accepted by hand, on the partner's page
          </option>
        </select>
      </label>
      <label class="check">
        <input name="takes_applications" type="checkbox" defaultChecked={a.takes_applications} /> Its page takes applications, and the
        program's page lists it
      </label>
      <p class="hint">
        {pageUrl ? (
          <>
            Its page: <a href={pageUrl}>{pageUrl}</a>
            {!a.takes_applications && ' (closed while it takes no applications)'}
          </>
        ) : (
          <>
            Its page appears once the program's public page is up (<a href={href('/settings#public-page')}>Settings</a>).
          </>
        )}
      </p>
      <Saving error={error} done={done} busy={busy} label="Save settings" />
    </form>
  );
}

interface RuleDraft {
  key: number;
  to: string;
  metric: Metric;
  currency: string;
  threshold: string;
  window: string;
}
let ruleKeys = 0;
const inMoney = (m: Metric) => m !== 'customers';

function ruleDraft(r: MoveRule | null, to: string, currency: string): RuleDraft {
  const metric = (r?.metric ?? 'customers') as Metric;
  const c = r?.currency ?? currency;
  return {
    key: ruleKeys++,
    to: r?.to_group_id ?? to,
    metric,
    currency: c,
    threshold: r ? (inMoney(metric) ? majorText(r.threshold, c) : String(r.threshold)) : '',
    window: r?.window_days == null ? '' : String(r.window_days),
  };
}

const METRICS: Record<Metric, string> = {
  customers: 'paying customers',
  revenue: 'revenue',
  commissions: 'commissions earned',
};

/** The group's move rules: to which group a partnership moves once a total reaches a threshold. */
function MoveRules({ group, groups, currency, saved }: { group: Group; groups: Group[]; currency: string; saved: () => void }) {
  const others = groups.filter((g) => g.id !== group.id);
  const [rules, setRules] = useState(() => group.attributes.move_rules.map((r) => ruleDraft(r, '', currency)));
  const [, setRound] = useState(0);
  const changed = () => setRound((n) => n + 1);
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async () => {
    setDone(false);
    const move_rules = rules.map((r, i) => {
      const where = `Rule ${i + 1}`;
      const code = r.currency.trim().toUpperCase();
      if (!r.to) throw new Error(`${where}: choose the group it moves partners to.`);
      if (inMoney(r.metric) && !/^[A-Z]{3}$/.test(code)) throw new Error(`${where}: give a currency code, such as USD.`);
      const t = r.threshold.trim();
      const threshold = inMoney(r.metric) ? parseMajor(t, code, `${where.toLowerCase()}'s threshold`) : Number(t);
      if (!inMoney(r.metric) && !/^\d{1,9}$/.test(t)) throw new Error(`${where}: the threshold is a whole number of customers.`);
      if (threshold < 1) throw new Error(`${where}: the threshold must be more than nothing.`);
      const w = r.window.trim();
      if (w && !/^\d{1,4}$/.test(w)) throw new Error(`${where}: the window is a whole number of days.`);
      return {
        to_group_id: r.to,
        metric: r.metric,
        currency: inMoney(r.metric) ? code : null,
        threshold,
        window_days: w ? Number(w) : null,
      };
    });
    await api.PATCH('/v1/groups/{id}', { params: { path: { id: group.id } }, body: { move_rules } });
    setDone(true);
    saved();
  });
  return (
    <form class="panel" onSubmit={onSubmit} aria-labelledby="move-rules-title">
      <h2 id="move-rules-title">Move rules</h2>
      <p class="hint">
        After each payment, the first rule whose threshold a partner reaches moves them to its group, once; a refund never moves them back.
        Moves are listed on each partner's page.
      </p>
      {others.length === 0 ? (
        <p>There is no other group to move partners to yet.</p>
      ) : (
        <>
          {rules.length === 0 && <p>No rules: partners stay in this group until you move them.</p>}
          {rules.map((r, i) => (
            // biome-ignore lint/a11y/useSemanticElements: a legend in every row would repeat what the group's name says
            <div class="condition" role="group" aria-label={`Rule ${i + 1}`} key={r.key}>
              <label>
                Move to
                <select
                  value={r.to}
                  onChange={(e) => {
                    r.to = e.currentTarget.value;
                    changed();
                  }}
                >
                  <option value="" disabled>
                    Choose a group
                  </option>
                  {others.map((g) => (
                    <option value={g.id}>{g.attributes.name}</option>
                  ))}
                </select>
              </label>
              <label>
                once their
                <select
                  value={r.metric}
                  onChange={(e) => {
                    r.metric = e.currentTarget.value as Metric;
                    changed();
                  }}
                >
                  {Object.entries(METRICS).map(([m, label]) => (
                    <option value={m}>{label}</option>
                  ))}
                </select>
              </label>
              <label class="value">
                reach {inMoney(r.metric) && <span class="hint">(in major units)</span>}
                <input
                  type="number"
                  min={inMoney(r.metric) ? 0 : 1}
                  step={inMoney(r.metric) ? 'any' : 1}
                  required
                  value={r.threshold}
                  onInput={(e) => {
                    r.threshold = e.currentTarget.value;
                  }}
                />
              </label>
              {inMoney(r.metric) && (
                <label class="short">
                  Currency
                  <input
                    maxLength={3}
                    size={4}
                    required
                    spellcheck={false}
                    value={r.currency}
                    onInput={(e) => {
                      r.currency = e.currentTarget.value;
                    }}
                  />
                </label>
              )}
              <label class="short">
                over days <span class="hint">(empty: all time)</span>
                <input
                  type="number"
                  min={1}
                  max={3650}
                  value={r.window}
                  onInput={(e) => {
                    r.window = e.currentTarget.value;
                  }}
                />
              </label>
              <button
                type="button"
                class="secondary danger"
                aria-label={`Remove rule ${i + 1}`}
                onClick={() => setRules(rules.filter((x) => x !== r))}
              >
                Remove
              </button>
            </div>
          ))}
          <div class="buttons">
            <button type="button" class="secondary" onClick={() => setRules([...rules, ruleDraft(null, others[0]!.id, currency)])}>
              Add rule
            </button>
            <button type="submit" disabled={busy}>
              Save move rules
            </button>
          </div>
        </>
      )}
      <Saving error={error} done={done} busy={busy} />
    </form>
  );
}

export function GroupPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const id = params.id ?? '';
  const loaded = useLoad(async (signal) => {
    const [group, groups, rewards, program] = await Promise.all([
      api.GET('/v1/groups/{id}', { params: { path: { id } }, signal }),
      allGroups(signal),
      allRewards(signal, id),
      api.GET('/v1/program', { signal }),
    ]);
    return { group: group.data, groups, rewards, program: program.data.attributes };
  }, id);
  const count = useLoad((signal) => partnerCount(id, signal), `count/${id}`);
  const [editing, setEditing] = useState<Reward | 'new' | null>(null);
  const [removing, setRemoving] = useState<Reward | null>(null);
  const [deleting, setDeleting] = useState(false);
  return (
    <Show loaded={loaded}>
      {({ group, groups, rewards, program }) => {
        const a = group.attributes;
        const currency = Object.keys(program.minimum_payout)[0] ?? 'USD';
        const columns: Column<Reward>[] = [
          { label: 'For', cell: (r) => EVENT_WORDS[r.attributes.event], text: (r) => r.attributes.event },
          {
            label: 'Reward',
            cell: (r) => (
              <span class="wrap">
                {r.attributes.description}
                {r.attributes.base && <span class="hint"> (the program's rate)</span>}
              </span>
            ),
            text: (r) => r.attributes.description,
          },
          {
            label: 'Actions',
            cell: (r) =>
              r.attributes.base ? (
                <a href={href('/settings')}>Change in Settings</a>
              ) : (
                <>
                  <button type="button" class="link" aria-label={`Edit: ${r.attributes.description}`} onClick={() => setEditing(r)}>
                    Edit
                  </button>
                  <button type="button" class="link" aria-label={`Delete: ${r.attributes.description}`} onClick={() => setRemoving(r)}>
                    Delete
                  </button>
                </>
              ),
          },
        ];
        return (
          <section>
            <p class="crumbs">
              <a href={href('/groups')}>Groups</a> /
            </p>
            <div class="page-head">
              <h1>
                {a.name} {a.default && <span class="tag">default</span>}
              </h1>
              {!a.default && (
                <button type="button" class="secondary danger" onClick={() => setDeleting(true)}>
                  Delete group
                </button>
              )}
            </div>
            <dl class="facts">
              <dt>Partners</dt>
              <dd>{count.data ?? '…'}</dd>
              {a.default && (
                <>
                  <dt>Default</dt>
                  <dd>every partner not moved to another group is in it</dd>
                </>
              )}
            </dl>
            <section class="panel" aria-labelledby="rewards-title">
              <div class="panel-head">
                <h2 id="rewards-title">Rewards</h2>
                <button type="button" onClick={() => setEditing('new')}>
                  Add reward
                </button>
              </div>
              {rewards.length ? (
                <>
                  <Table caption={`Rewards of ${a.name}`} columns={columns} rows={rewards} />
                  <p class="hint">When several rewards apply, the one that pays most wins.</p>
                </>
              ) : (
                <Empty title="No rewards yet">
                  <p>
                    Its partners earn nothing until it has one: a percentage of each payment, an amount per sign-up, or per unique visitor a
                    day.
                  </p>
                </Empty>
              )}
            </section>
            <Preview groupId={group.id} currency={currency} />
            <GroupSettings key={group.id} group={group} program={program} saved={loaded.reload} />
            <MoveRules key={`${group.id}/rules`} group={group} groups={groups} currency={currency} saved={loaded.reload} />
            {editing && (
              <RewardDialog
                groupId={group.id}
                reward={editing === 'new' ? null : editing}
                currency={currency}
                onClose={() => setEditing(null)}
                saved={loaded.reload}
              />
            )}
            {removing && (
              <Confirm
                title="Delete this reward?"
                confirm="Delete reward"
                danger
                onClose={() => setRemoving(null)}
                onConfirm={async () => {
                  await api.DELETE('/v1/rewards/{id}', { params: { path: { id: removing.id } } });
                  loaded.reload();
                }}
              >
                <p>{removing.attributes.description}</p>
                <p>Commissions it already made stay as they are; new ones no longer earn it.</p>
              </Confirm>
            )}
            {deleting && (
              <Confirm
                title={`Delete ${a.name}?`}
                confirm="Delete group"
                danger
                onClose={() => setDeleting(false)}
                onConfirm={async () => {
                  await api.DELETE('/v1/groups/{id}', { params: { path: { id: group.id } } });
                  route(href('/groups'));
                }}
              >
                <p>A group with partners in it, or that another group's move rules lead to, cannot be deleted: move them first.</p>
              </Confirm>
            )}
          </section>
        );
      }}
    </Show>
  );
}
