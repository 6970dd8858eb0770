// The audit log (docs/audit.md): every change a member, a partner or a token made, newest
// first, filtered by who, what and when (in the page's address), each with what changed
// (before → after) folded under it, and the filtered log as CSV from the API. Times are
// the viewer's, in their own zone; the API's own values (actions, field names, ids) stay as sent.

import { useLocation } from 'preact-iso/router';
import { api, type Answer } from '../../common/api.js';
import { dateTime, int, startOfDay } from '../../common/format.js';
import { text, useSubmit } from '../../common/forms.js';
import { useListAddress } from '../../common/list-address.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Pager, Show, Table, type Column } from '../../common/ui.js';
import { t } from './words.js';

type Entry = Answer<'/v1/audit_events'>['data'][number];

const KINDS = ['user', 'partner', 'token', 'cli', 'system'] as const;
const FILTERS = ['action_eq', 'actor_kind_eq', 'target_id_eq', 'from', 'to'] as const;

/** A snapshot's fields as dotted paths to their values, the record's `attributes.` left off. */
function fields(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) fields(v, path === '' || path === 'attributes' ? k : `${path}.${k}`, out);
  } else if (path !== '' && path !== 'type') out.set(path, JSON.stringify(value));
  return out;
}

/** The fields that differ between before and after, with both values ('' where absent). */
export function changes(before: unknown, after: unknown): Array<[string, string, string]> {
  const was = fields(before);
  const now = fields(after);
  const names = [...new Set([...was.keys(), ...now.keys()])].sort();
  return names.filter((n) => was.get(n) !== now.get(n)).map((n) => [n, was.get(n) ?? '', now.get(n) ?? '']);
}

function Changes({ entry }: { entry: Entry }) {
  const { before, after, erased_at } = entry.attributes;
  if (erased_at !== undefined && before === undefined && after === undefined) return <span class="hint">{t('erased')}</span>;
  const diff = changes(before ?? null, after ?? null);
  if (diff.length === 0) return <span class="hint">{before === undefined && after === undefined ? '—' : t('noChange')}</span>;
  return (
    <details class="audit-diff">
      <summary>
        {t('fields', { count: diff.length, n: int(diff.length) })}
        <span class="visually-hidden">: {entry.attributes.action}</span>
      </summary>
      <table>
        <caption class="visually-hidden">{t('diff.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('diff.field')}</th>
            <th scope="col">{t('diff.before')}</th>
            <th scope="col">{t('diff.after')}</th>
          </tr>
        </thead>
        <tbody>
          {diff.map(([name, was, now]) => (
            <tr>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                <del>{was}</del>
              </td>
              <td>
                <ins>{now}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Made when the page renders, in the language spoken then. */
const columns = (): Column<Entry>[] => [
  {
    label: t('columns.when'),
    cell: (e) => <time dateTime={new Date(e.attributes.created_at * 1000).toISOString()}>{dateTime(e.attributes.created_at)}</time>,
    text: (e) => new Date(e.attributes.created_at * 1000).toISOString(),
  },
  {
    label: t('columns.who'),
    cell: (e) => (
      <span class="wrap">
        {e.attributes.actor_label ?? <span class="hint">{t('erased')}</span>}{' '}
        <span class="tag">{t(`kinds.${e.attributes.actor_kind}`)}</span>
      </span>
    ),
    text: (e) => `${e.attributes.actor_kind}: ${e.attributes.actor_label ?? ''}`,
  },
  { label: t('columns.action'), cell: (e) => <code>{e.attributes.action}</code>, text: (e) => e.attributes.action },
  {
    label: t('columns.target'),
    cell: (e) => <code class="secret">{e.attributes.target_id ?? e.attributes.target_type}</code>,
    text: (e) => `${e.attributes.target_type} ${e.attributes.target_id ?? ''}`,
    minor: true,
  },
  { label: t('columns.from'), cell: (e) => e.attributes.ip ?? '—', text: (e) => e.attributes.ip ?? '', minor: true },
  { label: t('columns.changes'), cell: (e) => <Changes entry={e} /> },
];

/** The address's filters as the API's: a day range in the viewer's zone, as instants. */
function apiFilters(query: Record<string, string>) {
  const out: Record<string, string> = {};
  for (const name of ['action_eq', 'actor_kind_eq', 'target_id_eq'] as const) if (query[name]) out[name] = query[name];
  if (query.from) out.created_at_gt = new Date(Date.parse(startOfDay(query.from)) - 1000).toISOString();
  if (query.to) out.created_at_lt = new Date(Date.parse(startOfDay(query.to)) + 86_400_000).toISOString();
  return out;
}

export function AuditLog() {
  const { path } = useLocation();
  const { query, page, set } = useListAddress();
  const filters = apiFilters(query);
  const loaded = useLoad(
    (signal) => api.GET('/v1/audit_events', { params: { query: { page, ...filters } }, signal }),
    JSON.stringify([page, filters]),
  );
  const search = useSubmit(async (form) =>
    set({
      action_eq: text(form, 'action_eq').trim(),
      target_id_eq: text(form, 'target_id_eq').trim(),
      from: text(form, 'from'),
      to: text(form, 'to'),
    }),
  );
  const filtered = FILTERS.some((f) => query[f]);
  return (
    <section>
      <h1>{t('title')}</h1>
      <p class="hint">{t('intro')}</p>
      <div class="filters">
        <label>
          <span>{t('filters.who')}</span>
          <select value={query.actor_kind_eq ?? ''} onChange={(e) => set({ actor_kind_eq: e.currentTarget.value })}>
            <option value="">{t('filters.anyone')}</option>
            {KINDS.map((kind) => (
              <option value={kind}>{t(`kinds.${kind}`)}</option>
            ))}
          </select>
        </label>
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for the browsers we serve; role="search" says the same */}
        <form role="search" class="wrapping" onSubmit={search.onSubmit}>
          <label>
            <span>{t('filters.action')}</span>
            <input
              name="action_eq"
              type="search"
              value={query.action_eq ?? ''}
              placeholder="partner.update"
              spellcheck={false}
              autocomplete="off"
            />
          </label>
          <label>
            <span>{t('filters.record')}</span>
            <input name="target_id_eq" type="search" value={query.target_id_eq ?? ''} spellcheck={false} autocomplete="off" />
          </label>
          <label>
            <span>{t('filters.from')}</span>
            <input name="from" type="date" value={query.from ?? ''} />
          </label>
          <label>
            <span>{t('filters.to')}</span>
            <input name="to" type="date" value={query.to ?? ''} />
          </label>
          <button type="submit" class="secondary">
            {t('filters.go')}
          </button>
        </form>
      </div>
      <p>
        <a class="button-link" href={`/v1/audit_events.csv?${new URLSearchParams(filters)}`} download>
          {t('download')}
        </a>
      </p>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            filtered ? (
              <Empty title={t('empty.filtered')}>
                <p>
                  <a href={path}>{t('empty.all')}</a>.
                </p>
              </Empty>
            ) : (
              <Empty title={t('empty.none')}>
                <p>{t('empty.noneText')}</p>
              </Empty>
            )
          ) : (
            <>
              <Table caption={t('title')} columns={columns()} rows={answer.data} />
              <Pager page={page} hasMore={answer.meta.pagination.has_more} go={(p) => set({ page: String(p) })} />
            </>
          )
        }
      </Show>
    </section>
  );
}
