// Settings' promotion codes (docs/codes.md): the program's discounts, listed in words and
// made (a percentage typed as "20" is 2000 basis points; an amount typed in major units,
// kept in minor units by its currency's exponent), and the rules for codes: who a code
// credits when a link brought the customer first, the codes made on acceptance, and the
// codes partners make themselves (their prefix and length); and the restricted Stripe API
// key with which Tally makes discounts' coupons and codes' promotion codes in Stripe (never
// shown again once saved: only its ends, `stripe_api_key_hint`).

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Confirm, text, useSubmit, Saving } from '../../common/forms.js';
import { ApiKey } from './api-key.js';
import { dateTime, parseDecimal, parseMajor } from '../../common/format.js';
import { useLoad } from '../../common/use-api.js';
import { Show, Table, type Column } from '../../common/ui.js';
import { allDiscounts, type Discount, discountWords } from '../discounts.js';
import { allGroups, byId, type Group } from '../groups.js';
import { t, tx } from './words.js';

type Program = Answer<'/v1/program'>['data'];
type Kind = Discount['attributes']['kind'];
type DurationKind = Discount['attributes']['duration']['kind'];

/** The typed amount off in the API's terms: basis points for a percentage, minor units of the currency for an amount. */
function amountOff(kind: Kind, typed: string, currency: string): number {
  if (kind === 'percent') {
    const bps = parseDecimal(typed, 2);
    if (bps === undefined || bps < 1 || bps > 10_000) throw new Error(t('codes.badPercent', { typed }));
    return bps;
  }
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error(t('codes.noCurrency'));
  const minor = parseMajor(typed, currency, t('codes.theAmountOff'));
  if (minor < 1) throw new Error(t('codes.nothingOff'));
  return minor;
}

function NewDiscount({ groups, onClose, made }: { groups: readonly Group[]; onClose: () => void; made: () => void }) {
  const [kind, setKind] = useState<Kind>('percent');
  const [duration, setDuration] = useState<DurationKind>('forever');
  const [currency, setCurrency] = useState('');
  const code = currency.trim().toUpperCase();
  return (
    <Confirm
      title={t('codes.newDiscount')}
      confirm={t('codes.makeDiscount')}
      onClose={onClose}
      onConfirm={async (form) => {
        const amount = amountOff(kind, text(form, 'amount').trim(), code);
        const months = Number(text(form, 'months'));
        const groupId = text(form, 'group_id');
        await api.POST('/v1/discounts', {
          body: {
            name: text(form, 'name').trim(),
            kind,
            amount,
            currency: kind === 'amount' ? code : null,
            duration: duration === 'months' ? { kind: 'months', months } : duration === 'once' ? { kind: 'once' } : { kind: 'forever' },
            group_id: groupId || null,
          },
        });
        made();
      }}
    >
      <label>
        {t('name')} <span class="hint">{t('codes.nameHint')}</span>
        {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one form: typing starts in its first field */}
        <input name="name" required maxLength={100} autoFocus />
      </label>
      <div class="fields">
        <label>
          {t('codes.takesOff')}
          <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            <option value="percent">{t('codes.aPercentage')}</option>
            <option value="amount">{t('codes.anAmount')}</option>
          </select>
        </label>
        <label class={kind === 'percent' ? 'short' : undefined}>
          {kind === 'percent' ? t('codes.percentOff') : t('codes.amountOff', { currency: code || t('codes.theCurrency') })}
          <input name="amount" inputMode="decimal" required autocomplete="off" />
        </label>
        {kind === 'amount' && (
          <label class="short">
            {t('codes.currency')}
            <input
              name="currency"
              required
              maxLength={3}
              pattern="[A-Za-z]{3}"
              placeholder="USD"
              value={currency}
              onInput={(e) => setCurrency(e.currentTarget.value)}
              autocomplete="off"
            />
          </label>
        )}
      </div>
      <div class="fields">
        <label>
          {t('codes.which')}
          <select name="duration" value={duration} onChange={(e) => setDuration(e.currentTarget.value as DurationKind)}>
            <option value="forever">{t('codes.forever')}</option>
            <option value="once">{t('codes.once')}</option>
            <option value="months">{t('codes.months')}</option>
          </select>
        </label>
        {duration === 'months' && (
          <label class="short">
            {t('codes.monthsLabel')}
            <input name="months" type="number" min={1} max={120} required />
          </label>
        )}
      </div>
      <label>
        {t('codes.forCodesOf')}
        <select name="group_id">
          <option value="">{t('codes.everyPartnerProgram')}</option>
          {groups.map((g) => (
            <option value={g.id}>{t('codes.groupPartners', { name: g.attributes.name })}</option>
          ))}
        </select>
      </label>
      <p class="hint">{t('codes.checkout')}</p>
    </Confirm>
  );
}

function Discounts() {
  const loaded = useLoad(async (signal) => {
    const [discounts, groups] = await Promise.all([allDiscounts(signal), allGroups(signal)]);
    return { discounts, groups };
  }, 'discounts');
  const [adding, setAdding] = useState(false);
  return (
    <>
      <div class="panel-head">
        <h3>{t('codes.discounts')}</h3>
        <button type="button" class="secondary" onClick={() => setAdding(true)}>
          {t('codes.newDiscount')}
        </button>
      </div>
      <Show loaded={loaded}>
        {({ discounts, groups }) => {
          const groupsById = byId(groups);
          const columns: Column<Discount>[] = [
            { label: t('name'), cell: (d) => d.attributes.name, text: (d) => d.attributes.name },
            { label: t('codes.takesOff'), cell: (d) => discountWords(d.attributes), text: (d) => discountWords(d.attributes) },
            {
              label: t('codes.forCodesOf'),
              cell: (d) =>
                d.attributes.group_id
                  ? t('codes.theGroupPartners', { name: groupsById[d.attributes.group_id]?.attributes.name ?? t('codes.deletedGroup') })
                  : t('codes.everyPartner'),
            },
            { label: t('codes.made'), cell: (d) => dateTime(d.attributes.created_at) },
          ];
          return (
            <>
              {discounts.length ? (
                <Table caption={t('codes.discounts')} columns={columns} rows={discounts} />
              ) : (
                <p class="hint">{t('codes.none')}</p>
              )}
              {adding && <NewDiscount groups={groups} onClose={() => setAdding(false)} made={loaded.reload} />}
            </>
          );
        }}
      </Show>
    </>
  );
}

/** The program's rules for codes. Fields start at the saved values and keep what is typed while the page loads again. */
function CodeRules({ program, saved }: { program: Program; saved: () => void }) {
  const a = program.attributes;
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    await api.PATCH('/v1/program', {
      body: {
        code_wins: text(form, 'code_wins') === 'code',
        auto_codes: form.get('auto_codes') === 'on',
        partner_codes: form.get('partner_codes') === 'on',
        code_prefix: text(form, 'code_prefix').trim(),
        code_max_length: Number(text(form, 'code_max_length')),
      },
    });
    setDone(true);
    saved();
  });
  return (
    <form class="code-rules" onSubmit={onSubmit} aria-labelledby="code-rules-title">
      <h3 id="code-rules-title">{t('codes.rules.title')}</h3>
      <fieldset class="choices">
        <legend>{t('codes.rules.legend')}</legend>
        <label class="check">
          <input type="radio" name="code_wins" value="referral" defaultChecked={!a.code_wins} />
          <span>
            <strong>{t('codes.rules.referralStands')}</strong> {t('codes.rules.referralStandsText')}
          </span>
        </label>
        <label class="check">
          <input type="radio" name="code_wins" value="code" defaultChecked={a.code_wins} />
          <span>
            <strong>{t('codes.rules.codeWins')}</strong> {t('codes.rules.codeWinsText')}
          </span>
        </label>
        <p class="hint">{t('codes.rules.eitherWay')}</p>
      </fieldset>
      <label class="check">
        <input type="checkbox" name="auto_codes" defaultChecked={a.auto_codes} />
        <span>{tx('codes.rules.autoCodes', { code: <code>{`${a.code_prefix}maya`.toUpperCase()}</code> })}</span>
      </label>
      <label class="check">
        <input type="checkbox" name="partner_codes" defaultChecked={a.partner_codes} />
        <span>{t('codes.rules.partnerCodes')}</span>
      </label>
      <div class="fields">
        <label>
          {t('codes.rules.prefix')} <span class="hint">{t('codes.rules.prefixHint')}</span>
          <input
            name="code_prefix"
            defaultValue={a.code_prefix}
            pattern="[A-Za-z0-9_\-]{0,16}"
            maxLength={16}
            spellcheck={false}
            autocomplete="off"
          />
        </label>
        <label class="short">
          {t('codes.rules.longest')} <span class="hint">{t('range', { min: 3, max: 32 })}</span>
          <input name="code_max_length" type="number" min={3} max={32} defaultValue={String(a.code_max_length)} required />
        </label>
      </div>
      <Saving error={error} done={done} busy={busy} label={t('codes.rules.save')} />
    </form>
  );
}

/** The Stripe API key Tally makes coupons and promotion codes with: set, replaced, removed. */
function StripeKey({ program, saved }: { program: Program; saved: () => void }) {
  return (
    <ApiKey
      field="stripe_api_key"
      program={program}
      saved={saved}
      title={t('codes.stripe.title')}
      level={3}
      label={{ set: t('codes.stripe.set'), replace: t('codes.stripe.replace') }}
      where={t('codes.stripe.where')}
      maxLength={300}
      removed={t('codes.stripe.removed')}
      removing={t('codes.stripe.removing')}
    >
      <p>{t('codes.stripe.intro')}</p>
    </ApiKey>
  );
}

export function PromotionCodeSettings({ program, saved }: { program: Program; saved: () => void }) {
  return (
    <section class="panel" id="promotion-codes" aria-labelledby="promotion-codes-title">
      <h2 id="promotion-codes-title">{t('sections.promotionCodes')}</h2>
      <p>{t('codes.intro')}</p>
      <Discounts />
      <CodeRules program={program} saved={saved} />
      <StripeKey program={program} saved={saved} />
    </section>
  );
}
