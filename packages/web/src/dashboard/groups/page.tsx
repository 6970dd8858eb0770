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
import { t, tx } from './words.js';

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

/** How a group takes applications, as a code: the table says it in words, the CSV keeps the code (docs/languages.md). */
const intake = (g: Group, program: Program | undefined): 'closed' | 'at_once' | 'by_hand' => {
  if (!g.attributes.takes_applications) return 'closed';
  return (g.attributes.auto_accept ?? program?.auto_accept) ? 'at_once' : 'by_hand';
};

function NewGroup({ onClose }: { onClose: () => void }) {
  const { route } = useLocation();
  return (
    <Confirm
      title={t('list.new')}
      confirm={t('newGroup.confirm')}
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
        {t('newGroup.name')} <span class="hint">{t('newGroup.nameHint')}</span>
        {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one form: typing starts in its first field */}
        <input name="name" required maxLength={100} autoFocus />
      </label>
      <label>
        {t('newGroup.address')} <span class="hint">{t('newGroup.addressHint')}</span>
        <input name="slug" pattern="[a-z0-9][a-z0-9_\-]{1,63}" maxLength={64} spellcheck={false} />
      </label>
      <p class="hint">{t('newGroup.hint')}</p>
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
        <h1>{t('list.title')}</h1>
        <button type="button" onClick={() => setAdding(true)}>
          {t('list.new')}
        </button>
      </div>
      <p class="hint">{t('list.intro')}</p>
      <Show loaded={loaded}>
        {({ groups, rewards, program }) => {
          const columns: Column<Group>[] = [
            {
              label: t('list.group'),
              cell: (g) => (
                <>
                  <a href={href(`/groups/${g.id}`)}>{g.attributes.name}</a>{' '}
                  {g.attributes.default && <span class="tag">{t('default')}</span>}
                </>
              ),
              text: (g) => g.attributes.name,
            },
            {
              label: t('list.partners'),
              numeric: true,
              cell: (g) => counts.data?.[g.id] ?? '…',
              text: (g) => counts.data?.[g.id] ?? '',
            },
            {
              label: t('list.rewards'),
              cell: (g) => {
                const mine = rewards.filter((r) => r.attributes.group_id === g.id);
                return mine.length ? (
                  <span class="wrap">{mine.map((r) => r.attributes.description).join('\n')}</span>
                ) : (
                  <span class="warn">{t('list.noRewards')}</span>
                );
              },
              text: (g) =>
                rewards
                  .filter((r) => r.attributes.group_id === g.id)
                  .map((r) => r.attributes.description)
                  .join('; '),
            },
            { label: t('list.applications'), cell: (g) => t(`applications.${intake(g, program)}`), text: (g) => intake(g, program) },
          ];
          return (
            <>
              <Table caption={t('list.title')} columns={columns} rows={groups} csv="groups" />
              {groups.length < 2 && (
                <Empty title={t('list.onlyDefault')}>
                  <p>{t('list.onlyDefaultText')}</p>
                  <button type="button" class="secondary" onClick={() => setAdding(true)}>
                    {t('list.make')}
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
      <h2 id="preview-title">{t('preview.title')}</h2>
      <p class="hint">{t('preview.hint')}</p>
      <div class="row">
        <label>
          {t('preview.amount')}
          <input name="amount" type="number" min={0} step="any" inputMode="decimal" required defaultValue="49" />
        </label>
        <label>
          {t('preview.currency')}
          <input name="currency" required maxLength={3} pattern="[A-Za-z]{3}" spellcheck={false} defaultValue={currency} />
        </label>
      </div>
      <div class="row">
        <label>
          {t('preview.month')} <span class="hint">{t('preview.monthHint')}</span>
          <input name="month" type="number" min={1} max={1200} required defaultValue="1" />
        </label>
        <label>
          {t('preview.product')} <span class="hint">{t('preview.productHint')}</span>
          <input name="product_id" maxLength={200} spellcheck={false} />
        </label>
      </div>
      <label>
        {t('preview.country')} <span class="hint">{t('preview.countryHint')}</span>
        <input name="customer_country" maxLength={2} pattern="[A-Za-z]{2}" spellcheck={false} />
      </label>
      {error !== undefined && <Failure error={error} />}
      <div role="status" class="preview-answer">
        {answer && (
          <p class="notice">
            {tx('preview.earns', { amount: <strong>{money(answer.amount, answer.currency)}</strong>, description: answer.description })}
          </p>
        )}
      </div>
      <button type="submit" disabled={busy}>
        {t('preview.title')}
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
      <h2 id="group-settings-title">{t('settings.title')}</h2>
      <div class="row">
        <label>
          {t('settings.name')}
          <input name="name" required maxLength={100} defaultValue={a.name} />
        </label>
        <label>
          {t('settings.address')}{' '}
          <span class="hint">{t('settings.addressHint', { program: program.slug ?? t('settings.yourProgram') })}</span>
          <input name="slug" required pattern="[a-z0-9][a-z0-9_\-]{1,63}" maxLength={64} spellcheck={false} defaultValue={a.slug} />
        </label>
      </div>
      <RuleFields values={a} inherit={program} recurring={false} initial />
      <label>
        {t('settings.applications')}
        {/* `selected` as where it starts (a select has no defaultValue): a render that follows keeps what is chosen. */}
        <select name="auto_accept">
          <option value="" selected={a.auto_accept === null}>
            {t('settings.asProgram', { now: program.auto_accept ? t('settings.atOnce') : t('settings.byHand') })}
          </option>
          <option value="yes" selected={a.auto_accept === true}>
            {t('settings.atOnce')}
          </option>
          <option value="no" selected={a.auto_accept === false}>
            {t('settings.byHandOnPage')}
          </option>
        </select>
      </label>
      <label class="check">
        <input name="takes_applications" type="checkbox" defaultChecked={a.takes_applications} /> {t('settings.takes')}
      </label>
      <p class="hint">
        {pageUrl ? (
          <>
            {tx('settings.page', { link: <a href={pageUrl}>{pageUrl}</a> })}
            {!a.takes_applications && t('settings.closed')}
          </>
        ) : (
          tx('settings.noPage', { link: <a href={href('/settings#public-page')}>{t('settings.settings')}</a> })
        )}
      </p>
      <Saving error={error} done={done} busy={busy} label={t('settings.save')} />
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

const METRICS: Metric[] = ['customers', 'revenue', 'commissions'];

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
      const n = i + 1;
      const code = r.currency.trim().toUpperCase();
      if (!r.to) throw new Error(t('moves.noGroup', { n }));
      if (inMoney(r.metric) && !/^[A-Z]{3}$/.test(code)) throw new Error(t('moves.noCurrency', { n }));
      const typed = r.threshold.trim();
      const threshold = inMoney(r.metric) ? parseMajor(typed, code, t('moves.threshold', { n })) : Number(typed);
      if (!inMoney(r.metric) && !/^\d{1,9}$/.test(typed)) throw new Error(t('moves.customers', { n }));
      if (threshold < 1) throw new Error(t('moves.nothing', { n }));
      const w = r.window.trim();
      if (w && !/^\d{1,4}$/.test(w)) throw new Error(t('moves.window', { n }));
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
      <h2 id="move-rules-title">{t('moves.title')}</h2>
      <p class="hint">{t('moves.hint')}</p>
      {others.length === 0 ? (
        <p>{t('moves.noOther')}</p>
      ) : (
        <>
          {rules.length === 0 && <p>{t('moves.none')}</p>}
          {rules.map((r, i) => (
            // biome-ignore lint/a11y/useSemanticElements: a legend in every row would repeat what the group's name says
            <div class="condition" role="group" aria-label={t('moves.rule', { n: i + 1 })} key={r.key}>
              <label>
                {t('moves.moveTo')}
                <select
                  value={r.to}
                  onChange={(e) => {
                    r.to = e.currentTarget.value;
                    changed();
                  }}
                >
                  <option value="" disabled>
                    {t('moves.choose')}
                  </option>
                  {others.map((g) => (
                    <option value={g.id}>{g.attributes.name}</option>
                  ))}
                </select>
              </label>
              <label>
                {t('moves.onceTheir')}
                <select
                  value={r.metric}
                  onChange={(e) => {
                    r.metric = e.currentTarget.value as Metric;
                    changed();
                  }}
                >
                  {METRICS.map((m) => (
                    <option value={m}>{t(`moves.metric.${m}`)}</option>
                  ))}
                </select>
              </label>
              <label class="value">
                {t('moves.reach')} {inMoney(r.metric) && <span class="hint">{t('moves.major')}</span>}
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
                  {t('moves.currency')}
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
                {t('moves.overDays')} <span class="hint">{t('moves.allTime')}</span>
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
                aria-label={t('moves.removeRule', { n: i + 1 })}
                onClick={() => setRules(rules.filter((x) => x !== r))}
              >
                {t('moves.remove')}
              </button>
            </div>
          ))}
          <div class="buttons">
            <button type="button" class="secondary" onClick={() => setRules([...rules, ruleDraft(null, others[0]!.id, currency)])}>
              {t('moves.add')}
            </button>
            <button type="submit" disabled={busy}>
              {t('moves.save')}
            </button>
          </div>
        </>
      )}
      <Saving error={error} done={done} busy={busy} />
    </form>
  );
}

/** The group's rewards: the table (the program's own rate read-only, changed in Settings), added, changed and deleted. */
function Rewards({ group, rewards, currency, saved }: { group: Group; rewards: Reward[]; currency: string; saved: () => void }) {
  const [editing, setEditing] = useState<Reward | 'new' | null>(null);
  const [removing, setRemoving] = useState<Reward | null>(null);
  const columns: Column<Reward>[] = [
    { label: t('rewards.for'), cell: (r) => t(`rewards.event.${r.attributes.event}`), text: (r) => r.attributes.event },
    {
      label: t('rewards.reward'),
      cell: (r) => (
        <span class="wrap">
          {r.attributes.description}
          {r.attributes.base && <span class="hint"> {t('rewards.programRate')}</span>}
        </span>
      ),
      text: (r) => r.attributes.description,
    },
    {
      label: t('rewards.actions'),
      cell: (r) =>
        r.attributes.base ? (
          <a href={href('/settings')}>{t('rewards.inSettings')}</a>
        ) : (
          <>
            <button
              type="button"
              class="link"
              aria-label={t('rewards.editOf', { reward: r.attributes.description })}
              onClick={() => setEditing(r)}
            >
              {t('rewards.edit')}
            </button>
            <button
              type="button"
              class="link"
              aria-label={t('rewards.deleteOf', { reward: r.attributes.description })}
              onClick={() => setRemoving(r)}
            >
              {t('rewards.delete')}
            </button>
          </>
        ),
    },
  ];
  return (
    <section class="panel" aria-labelledby="rewards-title">
      <div class="panel-head">
        <h2 id="rewards-title">{t('rewards.title')}</h2>
        <button type="button" onClick={() => setEditing('new')}>
          {t('rewards.add')}
        </button>
      </div>
      {rewards.length ? (
        <>
          <Table caption={t('rewards.caption', { name: group.attributes.name })} columns={columns} rows={rewards} />
          <p class="hint">{t('rewards.mostWins')}</p>
        </>
      ) : (
        <Empty title={t('rewards.none')}>
          <p>{t('rewards.noneText')}</p>
        </Empty>
      )}
      {editing && (
        <RewardDialog
          groupId={group.id}
          reward={editing === 'new' ? null : editing}
          currency={currency}
          onClose={() => setEditing(null)}
          saved={saved}
        />
      )}
      {removing && (
        <Confirm
          title={t('rewards.deleteTitle')}
          confirm={t('rewards.deleteConfirm')}
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.DELETE('/v1/rewards/{id}', { params: { path: { id: removing.id } } });
            saved();
          }}
        >
          <p>{removing.attributes.description}</p>
          <p>{t('rewards.deleteText')}</p>
        </Confirm>
      )}
    </section>
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
  const [deleting, setDeleting] = useState(false);
  return (
    <Show loaded={loaded}>
      {({ group, groups, rewards, program }) => {
        const a = group.attributes;
        const currency = Object.keys(program.minimum_payout)[0] ?? 'USD';
        return (
          <section>
            <p class="crumbs">
              <a href={href('/groups')}>{t('list.title')}</a> /
            </p>
            <div class="page-head">
              <h1>
                {a.name} {a.default && <span class="tag">{t('default')}</span>}
              </h1>
              {!a.default && (
                <button type="button" class="secondary danger" onClick={() => setDeleting(true)}>
                  {t('group.delete')}
                </button>
              )}
            </div>
            <dl class="facts">
              <dt>{t('group.partners')}</dt>
              <dd>{count.data ?? '…'}</dd>
              {a.default && (
                <>
                  <dt>{t('group.default')}</dt>
                  <dd>{t('group.defaultText')}</dd>
                </>
              )}
            </dl>
            <Rewards group={group} rewards={rewards} currency={currency} saved={loaded.reload} />
            <Preview groupId={group.id} currency={currency} />
            <GroupSettings key={group.id} group={group} program={program} saved={loaded.reload} />
            <MoveRules key={`${group.id}/rules`} group={group} groups={groups} currency={currency} saved={loaded.reload} />
            {deleting && (
              <Confirm
                title={t('group.deleteTitle', { name: a.name })}
                confirm={t('group.delete')}
                danger
                onClose={() => setDeleting(false)}
                onConfirm={async () => {
                  await api.DELETE('/v1/groups/{id}', { params: { path: { id: group.id } } });
                  route(href('/groups'));
                }}
              >
                <p>{t('group.deleteText')}</p>
              </Confirm>
            )}
          </section>
        );
      }}
    </Show>
  );
}
