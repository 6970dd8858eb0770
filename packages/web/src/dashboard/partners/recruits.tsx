// A partner's place in two-tier referrals (docs/two-tier.md), on their page: who recruited
// them, and whom they recruited with what each one's commissions paid them.

import { api } from '../../common/api.js';
import { dateTime, money } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Show, Table, type Column } from '../../common/ui.js';
import { href } from '../session.js';
import { t, tx } from './words.js';

interface Earned {
  currency: string;
  amount: number;
}
interface Recruit {
  id: string;
  partner_id: string;
  name: string;
  joined_at: number;
  earned: Earned[];
}

const earned = (list: readonly Earned[]): string => (list.length === 0 ? '—' : list.map((e) => money(e.amount, e.currency)).join(', '));

const columns = (): Column<Recruit>[] => [
  { label: t('recruits.recruit'), cell: (r) => <a href={href(`/partners/${r.partner_id}`)}>{r.name}</a>, text: (r) => r.name },
  {
    label: t('recruits.applied'),
    cell: (r) => dateTime(r.joined_at),
    text: (r) => new Date(r.joined_at * 1000).toISOString(),
    minor: true,
  },
  { label: t('recruits.paid'), cell: (r) => earned(r.earned), text: (r) => earned(r.earned), numeric: true },
];

export function PartnerRecruits({ partnershipId }: { partnershipId: string }) {
  const loaded = useLoad(
    (signal) => api.GET('/v1/partnerships/{id}/recruitment', { params: { path: { id: partnershipId } }, signal }),
    `recruitment/${partnershipId}`,
  );
  return (
    <Show loaded={loaded}>
      {(answer) => {
        const a = answer.data.attributes;
        if (!a.recruited_by && a.recruits.length === 0) return null;
        return (
          <section class="panel">
            <h2>{t('recruits.title')}</h2>
            {a.recruited_by && (
              <p>
                {tx('recruits.by', {
                  name: <a href={href(`/partners/${a.recruited_by.partner_id}`)}>{a.recruited_by.name}</a>,
                  date: dateTime(a.recruited_by.joined_at),
                })}
              </p>
            )}
            {a.recruits.length > 0 && (
              <>
                <p>{t('recruits.earnings', { amount: earned(a.earned) })}</p>
                <Table caption={t('recruits.caption')} columns={columns()} rows={a.recruits.map((r) => ({ ...r, id: r.partnership_id }))} />
              </>
            )}
          </section>
        );
      }}
    </Show>
  );
}
