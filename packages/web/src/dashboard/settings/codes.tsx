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

type Program = Answer<'/v1/program'>['data'];
type Kind = Discount['attributes']['kind'];
type DurationKind = Discount['attributes']['duration']['kind'];

/** The typed amount off in the API's terms: basis points for a percentage, minor units of the currency for an amount. */
function amountOff(kind: Kind, typed: string, currency: string): number {
  if (kind === 'percent') {
    const bps = parseDecimal(typed, 2);
    if (bps === undefined || bps < 1 || bps > 10_000)
      throw new Error(`Cannot read the percentage "${typed}": write 0.01 to 100, such as 20.`);
    return bps;
  }
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error('Give the currency of the amount off: a code such as USD.');
  const minor = parseMajor(typed, currency, 'the amount off');
  if (minor < 1) throw new Error('The amount off must be more than nothing.');
  return minor;
}

function NewDiscount({ groups, onClose, made }: { groups: readonly Group[]; onClose: () => void; made: () => void }) {
  const [kind, setKind] = useState<Kind>('percent');
  const [duration, setDuration] = useState<DurationKind>('forever');
  const [currency, setCurrency] = useState('');
  const code = currency.trim().toUpperCase();
  return (
    <Confirm
      title="New discount"
      confirm="Make discount"
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
        Name <span class="hint">(yours, such as Launch 20 %; partners do not see it)</span>
        {/* biome-ignore lint/a11y/noAutofocus: the dialog is this one form: typing starts in its first field */}
        <input name="name" required maxLength={100} autoFocus />
      </label>
      <div class="fields">
        <label>
          Takes off
          <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            <option value="percent">A percentage</option>
            <option value="amount">An amount</option>
          </select>
        </label>
        <label class={kind === 'percent' ? 'short' : undefined}>
          {kind === 'percent' ? 'Percent off' : `Amount off, in ${code || 'the currency'}`}
          <input name="amount" inputMode="decimal" required autocomplete="off" />
        </label>
        {kind === 'amount' && (
          <label class="short">
            Currency
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
          Which payments
          <select name="duration" value={duration} onChange={(e) => setDuration(e.currentTarget.value as DurationKind)}>
            <option value="forever">Every payment</option>
            <option value="once">The first payment only</option>
            <option value="months">The payments of some months</option>
          </select>
        </label>
        {duration === 'months' && (
          <label class="short">
            Months
            <input name="months" type="number" min={1} max={120} required />
          </label>
        )}
      </div>
      <label>
        For the codes of
        <select name="group_id">
          <option value="">Every partner (the program's)</option>
          {groups.map((g) => (
            <option value={g.id}>The {g.attributes.name} group's partners</option>
          ))}
        </select>
      </label>
      <p class="hint">Your checkout (Stripe, Paddle, your own) applies the discount; Tally credits the partner whose code it is.</p>
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
        <h3>Discounts</h3>
        <button type="button" class="secondary" onClick={() => setAdding(true)}>
          New discount
        </button>
      </div>
      <Show loaded={loaded}>
        {({ discounts, groups }) => {
          const groupsById = byId(groups);
          const columns: Column<Discount>[] = [
            { label: 'Name', cell: (d) => d.attributes.name, text: (d) => d.attributes.name },
            { label: 'Takes off', cell: (d) => discountWords(d.attributes), text: (d) => discountWords(d.attributes) },
            {
              label: 'For the codes of',
              cell: (d) =>
                d.attributes.group_id
                  ? `the ${groupsById[d.attributes.group_id]?.attributes.name ?? 'deleted'} group's partners`
                  : 'every partner',
            },
            { label: 'Made', cell: (d) => dateTime(d.attributes.created_at) },
          ];
          return (
            <>
              {discounts.length ? (
                <Table caption="Discounts" columns={columns} rows={discounts} />
              ) : (
                <p class="hint">
                  No discounts yet. A code needs none to credit its partner; a discount says what it takes off at checkout.
                </p>
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
      <h3 id="code-rules-title">Rules for codes</h3>
      <fieldset class="choices">
        <legend>When a customer a partner's link brought uses another partner's code</legend>
        <label class="check">
          <input type="radio" name="code_wins" value="referral" defaultChecked={!a.code_wins} />
          <span>
            <strong>The referral stands.</strong> The partner whose link brought the customer is paid, as for any of their payments; the
            code's partner gets nothing.
          </span>
        </label>
        <label class="check">
          <input type="radio" name="code_wins" value="code" defaultChecked={a.code_wins} />
          <span>
            <strong>The code wins.</strong> That payment pays the code's partner. The customer stays the first partner's: a later payment
            without the code pays them again.
          </span>
        </label>
        <p class="hint">
          Either way, a customer no link brought becomes the code's partner's, and a partner's own code used by them credits nothing.
        </p>
      </fieldset>
      <label class="check">
        <input type="checkbox" name="auto_codes" defaultChecked={a.auto_codes} />
        <span>
          Give each partnership a code when it is accepted: its key in capitals after the prefix (the partner whose key is maya gets{' '}
          <code>{`${a.code_prefix}maya`.toUpperCase()}</code>), once
        </span>
      </label>
      <label class="check">
        <input type="checkbox" name="partner_codes" defaultChecked={a.partner_codes} />
        <span>Partners make their own codes in the portal, five at most each, with the prefix and length below</span>
      </label>
      <div class="fields">
        <label>
          Prefix <span class="hint">(what partners' codes begin with, any case: up to 16 letters, digits, - or _; empty: anything)</span>
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
          Longest code <span class="hint">(3 to 32)</span>
          <input name="code_max_length" type="number" min={3} max={32} defaultValue={String(a.code_max_length)} required />
        </label>
      </div>
      <Saving error={error} done={done} busy={busy} label="Save code rules" />
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
      title="Stripe API key"
      level={3}
      label={{ set: 'Restricted key', replace: 'Replace it with a restricted key' }}
      where={
        <>
          rk_live_… or rk_test_…: in Stripe, Developers → API keys → Create restricted key, with write access to Coupons and Promotion codes
        </>
      }
      maxLength={300}
      removed="Removed. Tally makes no more codes in Stripe."
      removing={
        <>
          Tally stops making coupons and promotion codes in Stripe, and stops turning them off and on there. Those it made stay in Stripe,
          and codes stay linked to them.
        </>
      }
    >
      <p>
        With a restricted key of your Stripe account, Tally makes a code that has a discount in Stripe itself: the discount's coupon once,
        and the code as its promotion code, which customers type at Stripe's checkout. Disabling or enabling the code here turns it off or
        on in Stripe too. Without a key, make promotion codes in Stripe and link each code to its own on the partner's page.
      </p>
    </ApiKey>
  );
}

export function PromotionCodeSettings({ program, saved }: { program: Program; saved: () => void }) {
  return (
    <section class="panel" id="promotion-codes" aria-labelledby="promotion-codes-title">
      <h2 id="promotion-codes-title">Promotion codes</h2>
      <p>
        A partner says "use code MAYA for 20 % off" in a video or a podcast: nobody clicks a link, and the sale still credits them. Each
        partner's codes are on their page; a discount says what a code takes off.
      </p>
      <Discounts />
      <CodeRules program={program} saved={saved} />
      <StripeKey program={program} saved={saved} />
    </section>
  );
}
