// One partner: their link (to copy) and promotion codes, their partnership's state and
// terms, how they are paid (partner-payout.tsx), their own chart and figures, their latest
// referrals and commissions; and editing, accepting, declining and deleting them.

import { useLocation, useRoute } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import { api } from '../../common/api.js';
import { dateTime, int, moneyMap, percent } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Confirm } from '../../common/forms.js';
import { CopyButton, Empty, Show } from '../../common/ui.js';
import { href } from '../session.js';
import { MeasureChart } from '../../common/measures.js';
import { RangePicker, statsQuery, useRange } from '../../common/range.js';
import { CommissionTable, ReferralTable } from '../records/page.js';
import { RuleFields, rulesFrom } from '../rules.js';
import { allGroups, byId, type Group, type GroupMove } from '../groups.js';
import { PartnerCodes } from './codes.js';
import { PartnerLinks } from './links.js';
import { PartnerPayout } from './payout.js';
import { PartnerRecruits } from './recruits.js';
import { stateWord } from '../language.js';
import { t } from './words.js';

type Dialog = 'edit' | 'rate' | 'group' | 'accepted' | 'declined' | 'delete' | null;

/** A one-time link for the partner to set a portal password: e-mailed when SMTP is set up, else shown to hand over. */
function PortalInvite({ partnerId, name }: { partnerId: string; name: string }) {
  const [made, setMade] = useState<{ link: string | null; emailed: boolean } | null>(null);
  const [asking, setAsking] = useState(false);
  return (
    <section class="panel">
      <h2>{t('partner.portal')}</h2>
      <p>{t('partner.portalText')}</p>
      <button type="button" class="secondary" onClick={() => setAsking(true)}>
        {t('partner.invite')}
      </button>
      {asking && (
        <Confirm
          title={t('partner.inviteTitle', { name })}
          confirm={t('partner.inviteConfirm')}
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            setMade((await api.POST('/v1/partners/{id}/invitation', { params: { path: { id: partnerId } } })).meta);
          }}
        >
          <p>{t('partner.inviteText')}</p>
        </Confirm>
      )}
      {made && (
        <div class="notice" role="status">
          {made.link ? (
            <p>
              {t('partner.sendLink')} <code class="secret">{made.link}</code> <CopyButton text={made.link} />
            </p>
          ) : (
            <p>{t('partner.sent')}</p>
          )}
        </div>
      )}
    </section>
  );
}

async function loadPartner(id: string, signal: AbortSignal) {
  const [partner, partnerships, referrals, commissions, program, groups, moves] = await Promise.all([
    api.GET('/v1/partners/{id}', { params: { path: { id } }, signal }),
    api.GET('/v1/partnerships', { params: { query: { partner_id_eq: id } }, signal }),
    api.GET('/v1/referrals', { params: { query: { partner_id_eq: id, per_page: 10 } }, signal }),
    api.GET('/v1/commissions', { params: { query: { partner_id_eq: id, per_page: 10 } }, signal }),
    api.GET('/v1/program', { signal }),
    allGroups(signal),
    api.GET('/v1/group_moves', { params: { query: { partner_id_eq: id, per_page: 20 } }, signal }),
  ]);
  return {
    partner: partner.data,
    partnership: partnerships.data[0],
    referrals: referrals.data,
    commissions: commissions.data,
    program: program.data.attributes,
    groups,
    moves: moves.data,
  };
}

/** The partner's moves between groups, newest first: by whom, and why. */
function Moves({ moves, groups }: { moves: GroupMove[]; groups: Readonly<Record<string, Group>> }) {
  const name = (id: string | undefined) => (id ? (groups[id]?.attributes.name ?? t('partner.deletedGroup')) : t('partner.noGroup'));
  return (
    <section class="panel">
      <h2>{t('partner.moves')}</h2>
      {moves.length ? (
        <ul class="activity">
          {moves.map((m) => (
            <li key={m.id}>
              <time dateTime={new Date(m.attributes.created_at * 1000).toISOString()}>{dateTime(m.attributes.created_at)}</time>
              {m.attributes.moved_by === 'rule'
                ? t('partner.movedByRule', {
                    from: name(m.attributes.from_group_id),
                    to: name(m.attributes.to_group_id),
                    reason: m.attributes.reason ?? '',
                  })
                : t('partner.movedByOwner', { from: name(m.attributes.from_group_id), to: name(m.attributes.to_group_id) })}
            </li>
          ))}
        </ul>
      ) : (
        <p class="hint">{t('partner.neverMoved')}</p>
      )}
    </section>
  );
}

type PartnerData = Awaited<ReturnType<typeof loadPartner>>;
type Ship = NonNullable<PartnerData['partnership']>['attributes'];

/** The partner's facts: how to reach and pay them, their partnership's state (to accept or decline), terms and group. */
function PartnerFacts({ data, group, open }: { data: PartnerData; group: Group | undefined; open: (dialog: Dialog) => void }) {
  const a = data.partner.attributes;
  const ship = data.partnership?.attributes;
  return (
    <dl class="facts">
      <dt>{t('partner.email')}</dt>
      <dd>{a.email}</dd>
      <dt>PayPal</dt>
      <dd>{a.paypal_email ?? t('partner.noPaypal')}</dd>
      <dt>{t('partner.state')}</dt>
      <dd>
        <span class={`state ${ship?.state ?? 'none'}`}>
          {ship ? stateWord(`partnershipState.${ship.state}`, ship.state) : t('partner.noPartnership')}
        </span>{' '}
        {ship && ship.state !== 'accepted' && (
          <button type="button" onClick={() => open('accepted')}>
            {t('partner.accept')}
          </button>
        )}{' '}
        {ship && ship.state !== 'declined' && (
          <button type="button" class="secondary" onClick={() => open('declined')}>
            {t('partner.decline')}
          </button>
        )}
      </dd>
      {ship?.application_note && (
        <>
          <dt>{t('partner.application')}</dt>
          <dd class="note">{ship.application_note}</dd>
        </>
      )}
      <dt>{t('partner.terms')}</dt>
      <dd>
        {ship?.commission_rate_bps !== undefined
          ? t('partner.ownRate', { rate: percent(ship.commission_rate_bps / 10000) })
          : group && !group.attributes.default
            ? t('partner.groupRewards', { group: group.attributes.name })
            : t('partner.programRate')}
        {ship && (ship.recurring_months !== null || ship.hold_days !== null || ship.minimum_payout !== null)
          ? t('partner.ownRules')
          : t('partner.programRules')}{' '}
        {ship && (
          <button type="button" class="link" onClick={() => open('rate')}>
            {t('partner.change')}
          </button>
        )}
      </dd>
      {ship && (
        <>
          <dt>{t('partner.group')}</dt>
          <dd>
            {group ? <a href={href(`/groups/${group.id}`)}>{group.attributes.name}</a> : t('partner.none')}{' '}
            <button type="button" class="link" aria-label={t('partner.moveLabel')} onClick={() => open('group')}>
              {t('partner.move')}
            </button>
          </dd>
        </>
      )}
    </dl>
  );
}

/** The partner's own figures for the range picked: asked for with the partner, not after. */
function usePartnerStats(id: string) {
  const picked = useRange();
  const stats = useLoad(
    (signal) =>
      api.GET('/v1/stats', { params: { query: statsQuery(picked.range, { interval: picked.range.interval, partner_id_eq: id }) }, signal }),
    `${id}/${picked.range.from}/${picked.range.to}`,
  );
  return { picked, stats };
}

/** The partner's own figures and chart, with the range picker. */
function Performance({ picked, stats }: ReturnType<typeof usePartnerStats>) {
  return (
    <>
      <div class="page-head">
        <h2>{t('partner.performance')}</h2>
        <RangePicker {...picked} />
      </div>
      <Show loaded={stats}>
        {(s) => (
          <>
            <dl class="figures">
              {(
                [
                  [t('partner.clicks'), int(s.data.attributes.totals.clicks)],
                  [t('partner.referrals'), int(s.data.attributes.totals.referrals)],
                  [t('partner.revenue'), moneyMap(s.data.attributes.totals.revenue)],
                  [t('partner.commissions'), moneyMap(s.data.attributes.totals.commissions)],
                ] as const
              ).map(([label, value]) => (
                <div class="figure">
                  <dt>{label}</dt>
                  <dd class="value">{value}</dd>
                </div>
              ))}
            </dl>
            <MeasureChart stats={s.data.attributes} />
          </>
        )}
      </Show>
    </>
  );
}

/** The partner's latest referrals and commissions, each acted on in place. */
function LatestRecords({ data, reload }: { data: PartnerData; reload: () => void }) {
  const { partner, referrals, commissions } = data;
  return (
    <>
      <section class="panel">
        <h2>{t('partner.latestReferrals')}</h2>
        {referrals.length ? (
          <ReferralTable rows={referrals} reload={reload} />
        ) : (
          <Empty title={t('partner.noReferrals')}>
            <p>{t('partner.noReferralsText')}</p>
          </Empty>
        )}
      </section>
      <section class="panel">
        <h2>{t('partner.latestCommissions')}</h2>
        {commissions.length ? (
          <CommissionTable rows={commissions} reload={reload} partners={{ [partner.id]: partner.attributes.name }} />
        ) : (
          <Empty title={t('partner.noCommissions')}>
            <p>{t('partner.noCommissionsText')}</p>
          </Empty>
        )}
      </section>
    </>
  );
}

/** The partner's name, e-mail and PayPal address, to change. */
function EditPartner({ data, close, reload }: { data: PartnerData; close: () => void; reload: () => void }) {
  const { partner } = data;
  const a = partner.attributes;
  return (
    <Confirm
      title={t('partner.editTitle', { name: a.name })}
      confirm={t('partner.save')}
      onClose={close}
      onConfirm={async (form) => {
        const get = (n: string) => String(form.get(n) ?? '').trim();
        await api.PATCH('/v1/partners/{id}', {
          params: { path: { id: partner.id } },
          body: {
            name: get('name'),
            email: get('email'),
            paypal_email: get('paypal_email') || null,
          },
        });
        reload();
      }}
    >
      <label>
        {t('partners.name')}
        <input name="name" value={a.name} required />
      </label>
      <label>
        {t('partners.email')}
        <input name="email" type="email" value={a.email} required />
      </label>
      <label>
        {t('partners.paypal')}
        <input name="paypal_email" type="email" value={a.paypal_email ?? ''} />
      </label>
    </Confirm>
  );
}

/** The partnership's group, to move them to another. */
function MoveGroup({ data, ship, close, reload }: { data: PartnerData; ship: Ship; close: () => void; reload: () => void }) {
  return (
    <Confirm
      title={t('partner.moveTitle', { name: data.partner.attributes.name })}
      confirm={t('partner.move')}
      onClose={close}
      onConfirm={async (form) => {
        const to = String(form.get('group_id') ?? '');
        if (to !== ship.group_id) {
          await api.PATCH('/v1/partnerships/{id}', { params: { path: { id: data.partnership!.id } }, body: { group_id: to } });
        }
        reload();
      }}
    >
      <label>
        {t('partner.group')}
        <select name="group_id">
          {data.groups.map((g) => (
            <option value={g.id} selected={g.id === ship.group_id}>
              {g.attributes.name}
              {g.attributes.default ? ` ${t('partner.default')}` : ''}
            </option>
          ))}
        </select>
      </label>
      <p class="hint">{t('partner.moveHint')}</p>
    </Confirm>
  );
}

/** The partnership's own rate and rules, or the program's. */
function CommissionTerms({ data, ship, close, reload }: { data: PartnerData; ship: Ship; close: () => void; reload: () => void }) {
  return (
    <Confirm
      title={t('partner.termsTitle')}
      confirm={t('partner.save')}
      onClose={close}
      onConfirm={async (form) => {
        const raw = String(form.get('rate') ?? '').trim();
        const bps = raw === '' ? null : Math.round(Number(raw) * 100);
        await api.PATCH('/v1/partnerships/{id}', {
          params: { path: { id: data.partnership!.id } },
          body: { commission_rate_bps: bps, ...rulesFrom(form, true) },
        });
        reload();
      }}
    >
      <label>
        {t('partner.ratePercent')} <span class="hint">{t('partner.rateHint')}</span>
        <input
          name="rate"
          type="number"
          min={0}
          max={100}
          step={0.01}
          value={ship.commission_rate_bps === undefined ? '' : ship.commission_rate_bps / 100}
        />
      </label>
      <RuleFields values={ship} inherit={data.program} />
    </Confirm>
  );
}

/** The dialog open on the page, if any: each asks before it changes the partner. */
function PartnerDialog({ dialog, data, close, reload }: { dialog: Dialog; data: PartnerData; close: () => void; reload: () => void }) {
  const { route } = useLocation();
  const { partner, partnership } = data;
  const a = partner.attributes;
  const ship = partnership?.attributes;
  if (dialog === 'edit') return <EditPartner data={data} close={close} reload={reload} />;
  if (dialog === 'group' && ship) return <MoveGroup data={data} ship={ship} close={close} reload={reload} />;
  if (dialog === 'rate' && ship) return <CommissionTerms data={data} ship={ship} close={close} reload={reload} />;
  if (dialog === 'accepted' || dialog === 'declined') {
    return (
      <Confirm
        title={dialog === 'accepted' ? t('partner.acceptTitle', { name: a.name }) : t('partner.declineTitle', { name: a.name })}
        confirm={dialog === 'accepted' ? t('partner.accept') : t('partner.decline')}
        danger={dialog === 'declined'}
        onClose={close}
        onConfirm={async () => {
          await api.PATCH('/v1/partnerships/{id}', { params: { path: { id: partnership!.id } }, body: { state: dialog } });
          reload();
        }}
      >
        <p>{dialog === 'accepted' ? t('partner.acceptText') : t('partner.declineText')}</p>
      </Confirm>
    );
  }
  if (dialog === 'delete') {
    return (
      <Confirm
        title={t('partner.deleteTitle', { name: a.name })}
        confirm={t('partner.delete')}
        danger
        onClose={close}
        onConfirm={async () => {
          await api.DELETE('/v1/partners/{id}', { params: { path: { id: partner.id } } });
          route(href('/partners'));
        }}
      >
        <p>{t('partner.deleteText')}</p>
      </Confirm>
    );
  }
  return null;
}

export function Partner() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const loaded = useLoad((signal) => loadPartner(id, signal), id);
  const performance = usePartnerStats(id);
  const [dialog, setDialog] = useState<Dialog>(null);
  return (
    <Show loaded={loaded}>
      {(data) => {
        const { partner, partnership, program, groups, moves } = data;
        const a = partner.attributes;
        const ship = partnership?.attributes;
        const groupsById = byId(groups);
        const group = ship?.group_id ? groupsById[ship.group_id] : undefined;
        return (
          <section>
            <p class="crumbs">
              <a href={href('/partners')}>{t('partners.title')}</a> /
            </p>
            <div class="page-head">
              <h1>{a.name}</h1>
              <div class="buttons">
                {partnership && (
                  <a class="button-link" href={href(`/messages/${partnership.id}`)}>
                    {t('partner.messages')}
                  </a>
                )}
                <button type="button" class="secondary" onClick={() => setDialog('edit')}>
                  {t('partner.edit')}
                </button>
                <button type="button" class="secondary danger" onClick={() => setDialog('delete')}>
                  {t('partner.delete')}
                </button>
              </div>
            </div>
            <PartnerFacts data={data} group={group} open={setDialog} />
            {ship && (
              <section class="panel link-panel">
                <h2>{t('partner.link')}</h2>
                <p>
                  <code class="referral-link">{ship.referral_link}</code>{' '}
                  <CopyButton text={ship.referral_link} label={t('partner.copyLink')} />
                </p>
                <p class="hint">{t('partner.anyPage', { key: ship.key })}</p>
              </section>
            )}
            {ship && <PartnerCodes partnership={partnership!} program={program} groupName={group?.attributes.name} />}
            {partnership && <PartnerLinks partnershipId={partnership.id} />}
            <PortalInvite partnerId={partner.id} name={a.name} />
            <PartnerPayout partnerId={partner.id} />
            {ship && <PartnerRecruits partnershipId={partnership!.id} />}
            <Performance {...performance} />
            <LatestRecords data={data} reload={loaded.reload} />
            {ship && <Moves moves={moves} groups={groupsById} />}
            <PartnerDialog dialog={dialog} data={data} close={() => setDialog(null)} reload={loaded.reload} />
          </section>
        );
      }}
    </Show>
  );
}
