// The partner's open bounties (docs/bounties.md): a performance bounty's progress as a bar,
// a submission bounty's form within its limits, and what they sent and how it was decided.
// Loaded lazily, with its words (words.ts): the portal's entry is at its size budget.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { useSubmit, Saving } from '../../common/forms.js';
import { dateTime, int, money } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Show } from '../../common/ui.js';
import { usePortal } from '../session.js';
import { t } from './words.js';

type Bounty = Answer<'/v1/portal/partnerships/{id}/bounties'>['data'][number];
type A = Bounty['attributes'];

const amountOf = (a: A, n: number): string => (a.metric === 'revenue' ? money(n, a.currency) : int(n));

function Progress({ b }: { b: Bounty }) {
  const a = b.attributes;
  if (!a.progress) return null;
  const id = `progress-${b.id}`;
  const words = t('progressText', { value: amountOf(a, a.progress.value), target: amountOf(a, a.progress.target) });
  return (
    <div class="bounty-progress">
      <label for={id}>{t('progress')}</label>{' '}
      <progress id={id} max={a.progress.target} value={Math.min(a.progress.value, a.progress.target)} /> <span>{words}</span>
      {a.awarded && (
        <p class="ok" role="status">
          {t('awarded')}
        </p>
      )}
    </div>
  );
}

/** `done`: this bounty's submission was just sent (kept by the page, which outlives the reload). */
function SubmitForm({ partnership, b, done, sent }: { partnership: string; b: Bounty; done: boolean; sent: () => void }) {
  const a = b.attributes;
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    const urls = String(form.get('urls') ?? '')
      .split(/\s+/)
      .filter(Boolean);
    if (a.requires_url && urls.length === 0) throw new Error(t('urlRequired'));
    await api.POST('/v1/portal/partnerships/{id}/bounties/{bounty}/submissions', {
      params: { path: { id: partnership, bounty: b.id } },
      body: { urls, text: String(form.get('text') ?? '') },
    });
    el.reset();
    sent();
  });
  if (a.submissions_left === 0) return <p>{done ? t('sent') : t('noneLeft')}</p>;
  return (
    <form onSubmit={onSubmit} aria-label={`${t('submit')}: ${a.name}`}>
      <p>{t('left', { count: Number(a.submissions_left) })}</p>
      {Number(a.max_urls) > 0 && (
        <label>
          {t('urls')} <span class="hint">({t('urlsHint', { count: Number(a.max_urls) })})</span>
          <textarea name="urls" rows={2} required={a.requires_url} />
        </label>
      )}
      {Number(a.max_text) > 0 && (
        <label>
          {t('text')} <span class="hint">({t('textHint', { count: Number(a.max_text) })})</span>
          <textarea name="text" rows={3} maxLength={Number(a.max_text)} />
        </label>
      )}
      <Saving error={error} done={done && t('sent')} busy={busy} label={t('submit')} />
    </form>
  );
}

function Submissions({ b }: { b: Bounty }) {
  if (b.attributes.submissions.length === 0) return null;
  return (
    <>
      <h3>{t('yours')}</h3>
      <ul>
        {b.attributes.submissions.map((s) => (
          <li>
            {dateTime(s.attributes.created_at)}: {t(`state.${s.attributes.state}`, { reason: s.attributes.reject_reason ?? '' })}
          </li>
        ))}
      </ul>
    </>
  );
}

function BountyCard({ partnership, b, done, sent }: { partnership: string; b: Bounty; done: boolean; sent: () => void }) {
  const a = b.attributes;
  return (
    <article class="panel bounty" aria-labelledby={`bounty-${b.id}`}>
      <h2 id={`bounty-${b.id}`}>{a.name}</h2>
      {a.description && <p>{a.description}</p>}
      <p>
        <strong>{t('reward', { amount: money(a.amount, a.currency) })}</strong>
        {a.metric && <> · {t(`target.${a.metric}`, { target: amountOf(a, Number(a.target)) })}</>}
      </p>
      <p class="hint">{t('period', { from: dateTime(a.starts_at), to: dateTime(a.ends_at) })}</p>
      {a.kind === 'performance' ? <Progress b={b} /> : <SubmitForm partnership={partnership} b={b} done={done} sent={sent} />}
      <Submissions b={b} />
    </article>
  );
}

export function Bounties() {
  const { current } = usePortal();
  const id = current?.id ?? '';
  const [sent, setSent] = useState<string>();
  const loaded = useLoad(
    current ? (signal) => api.GET('/v1/portal/partnerships/{id}/bounties', { params: { path: { id } }, signal }) : null,
    `bounties:${id}`,
  );
  return (
    <section>
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <Show loaded={loaded}>
        {(answer) =>
          answer.data.length === 0 ? (
            <Empty title={t('none')} />
          ) : (
            answer.data.map((b) => (
              <BountyCard
                key={b.id}
                partnership={id}
                b={b}
                done={sent === b.id}
                sent={() => {
                  setSent(b.id);
                  loaded.reload();
                }}
              />
            ))
          )
        }
      </Show>
    </section>
  );
}
