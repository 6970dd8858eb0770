// A partner's promotion codes, on their page: each code with its discount in words, who
// made it, whether it is on and the Stripe promotion code it is; making one (a discount of
// the program's or of their group, a Stripe promotion code's id), turning one off or on
// again, and linking one to its Stripe promotion code (or unlinking it) once made.
// docs/codes.md is the contract.

import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { CODE_PATTERN, everyPage } from '../../common/codes.js';
import { Confirm, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Empty, Failure, Show, Table, type Column } from '../../common/ui.js';
import { allDiscounts, type Code, discountWords, madeBy } from '../discounts.js';
import { href } from '../session.js';
import { stateWord } from '../language.js';
import { t, tx } from './words.js';

type Partnership = Answer<'/v1/partnerships'>['data'][number];
type Program = Answer<'/v1/program'>['data']['attributes'];

/** Links a code to a Stripe promotion code, or gives it another; a refusal (one another code is linked to) stays in the dialog. */
function LinkPromotion({ code, onClose, linked }: { code: Code; onClose: () => void; linked: () => void }) {
  const current = code.attributes.stripe_promotion_code_id;
  // The dialog is this one field: typing starts in it.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <Confirm
      title={current ? t('codes.changeTitle', { code: code.attributes.code }) : t('codes.linkTitle', { code: code.attributes.code })}
      confirm={current ? t('codes.change') : t('codes.link')}
      onClose={onClose}
      onConfirm={async (form) => {
        await api.PATCH('/v1/discount_codes/{id}', {
          params: { path: { id: code.id } },
          body: { stripe_promotion_code_id: text(form, 'stripe_promotion_code_id').trim() },
        });
        linked();
      }}
    >
      <p>{t('codes.linkText')}</p>
      <label>
        {t('codes.promotion')} <span class="hint">{t('codes.promotionHint')}</span>
        <input
          ref={field}
          name="stripe_promotion_code_id"
          required
          pattern="\s*promo_[A-Za-z0-9]{1,64}\s*"
          maxLength={70}
          placeholder="promo_…"
          defaultValue={current ?? ''}
          spellcheck={false}
          autocomplete="off"
        />
      </label>
    </Confirm>
  );
}

async function loadCodes(partnershipId: string, signal: AbortSignal) {
  const [codes, discounts] = await Promise.all([
    everyPage((after) =>
      api.GET('/v1/discount_codes', {
        params: { query: { partnership_id_eq: partnershipId, per_page: 50, starting_after: after } },
        signal,
      }),
    ),
    allDiscounts(signal),
  ]);
  return { codes, discounts };
}

type Discount = Awaited<ReturnType<typeof allDiscounts>>[number];
type Pick = (code: Code) => void;

/** A code's buttons: turn it off or on, link it to a Stripe promotion code, change or unlink that. */
function CodeActions({ c, toggle, link, unlink }: { c: Code; toggle: Pick; link: Pick; unlink: Pick }) {
  return (
    <span class="buttons">
      <button
        type="button"
        class="link"
        aria-label={
          c.attributes.enabled ? t('codes.disableCode', { code: c.attributes.code }) : t('codes.enableCode', { code: c.attributes.code })
        }
        onClick={() => toggle(c)}
      >
        {c.attributes.enabled ? t('codes.disable') : t('codes.enable')}
      </button>
      {c.attributes.stripe_promotion_code_id ? (
        <>
          <button type="button" class="link" aria-label={t('codes.changeTitle', { code: c.attributes.code })} onClick={() => link(c)}>
            {t('codes.change')}
          </button>
          <button
            type="button"
            class="link"
            aria-label={t('codes.unlinkLabel', { code: c.attributes.code, promo: c.attributes.stripe_promotion_code_id })}
            onClick={() => unlink(c)}
          >
            {t('codes.unlink')}
          </button>
        </>
      ) : (
        <button type="button" class="link" aria-label={t('codes.linkTitle', { code: c.attributes.code })} onClick={() => link(c)}>
          {t('codes.link')}
        </button>
      )}
    </span>
  );
}

/** The codes table's columns: the discount in words from the program's discounts, and each code's actions. */
function codeColumns(discounts: Discount[], actions: { toggle: Pick; link: Pick; unlink: Pick }): Column<Code>[] {
  const discountsById = Object.fromEntries(discounts.map((d) => [d.id, d]));
  const discountOf = (c: Code) => (c.attributes.discount_id ? discountsById[c.attributes.discount_id] : undefined);
  return [
    { label: t('codes.code'), cell: (c) => <code class="promo-code">{c.attributes.code}</code>, text: (c) => c.attributes.code },
    {
      label: t('codes.discount'),
      cell: (c) => {
        const d = discountOf(c);
        return d
          ? `${d.attributes.name}: ${discountWords(d.attributes)}`
          : c.attributes.discount_id
            ? t('codes.aDiscount')
            : t('codes.noDiscount');
      },
    },
    { label: t('codes.madeBy'), cell: (c) => madeBy(c.attributes.created_by) },
    {
      label: t('codes.state'),
      cell: (c) => (
        <span class={`state ${c.attributes.enabled ? 'enabled' : 'disabled'}`}>
          {c.attributes.enabled ? t('codes.enabled') : t('codes.disabled')}
        </span>
      ),
    },
    {
      label: t('codes.promotion'),
      cell: (c) => (c.attributes.stripe_promotion_code_id ? <code>{c.attributes.stripe_promotion_code_id}</code> : '—'),
    },
    { label: t('codes.actions'), cell: (c) => <CodeActions c={c} {...actions} /> },
  ];
}

/** Asks before turning a code off (or on again). */
function ToggleCode({ code, onClose, done }: { code: Code; onClose: () => void; done: () => void }) {
  return (
    <Confirm
      title={
        code.attributes.enabled
          ? t('codes.disableTitle', { code: code.attributes.code })
          : t('codes.enableTitle', { code: code.attributes.code })
      }
      confirm={code.attributes.enabled ? t('codes.disable') : t('codes.enable')}
      danger={code.attributes.enabled}
      onClose={onClose}
      onConfirm={async () => {
        await api.PATCH('/v1/discount_codes/{id}', {
          params: { path: { id: code.id } },
          body: { enabled: !code.attributes.enabled },
        });
        done();
      }}
    >
      <p>{code.attributes.enabled ? t('codes.disableText') : t('codes.enableText')}</p>
    </Confirm>
  );
}

/** Asks before unlinking a code from its Stripe promotion code. */
function UnlinkCode({ code, onClose, done }: { code: Code; onClose: () => void; done: () => void }) {
  return (
    <Confirm
      title={t('codes.unlinkTitle', { code: code.attributes.code, promo: code.attributes.stripe_promotion_code_id ?? '' })}
      confirm={t('codes.unlink')}
      onClose={onClose}
      onConfirm={async () => {
        await api.PATCH('/v1/discount_codes/{id}', {
          params: { path: { id: code.id } },
          body: { stripe_promotion_code_id: null },
        });
        done();
      }}
    >
      <p>{t('codes.unlinkText')}</p>
    </Confirm>
  );
}

/** Makes a code for the partnership, with a discount of the program's or of their group (`offered`), or a Stripe promotion code. */
function NewCode({
  partnershipId,
  offered,
  groupName,
  made,
}: {
  partnershipId: string;
  offered: Discount[];
  groupName?: string;
  made: () => void;
}) {
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    const discountId = text(form, 'discount_id');
    const promo = text(form, 'stripe_promotion_code_id').trim();
    await api.POST('/v1/discount_codes', {
      body: {
        partnership_id: partnershipId,
        code: text(form, 'code').trim(),
        ...(discountId ? { discount_id: discountId } : {}),
        ...(promo ? { stripe_promotion_code_id: promo } : {}),
      },
    });
    el.reset();
    made();
  });
  return (
    <form class="make-code" onSubmit={onSubmit} aria-labelledby="new-code-title">
      <h3 id="new-code-title">{t('codes.new')}</h3>
      <div class="fields">
        <label>
          {t('codes.code')} <span class="hint">{t('codes.codeHint')}</span>
          <input name="code" required minLength={3} maxLength={32} pattern={CODE_PATTERN} spellcheck={false} autocomplete="off" />
        </label>
        <label>
          {t('codes.discount')} <span class="hint">{t('codes.discountHint')}</span>
          <select name="discount_id">
            <option value="">{t('codes.none')}</option>
            {offered.map((d) => (
              <option value={d.id}>
                {d.attributes.name}: {discountWords(d.attributes)}
                {d.attributes.group_id ? ` ${t('codes.groupOf', { group: groupName ?? t('codes.theirGroup') })}` : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('codes.promotion')} <span class="hint">{t('codes.promotionOptional')}</span>
          <input
            name="stripe_promotion_code_id"
            pattern="promo_[A-Za-z0-9]{1,64}"
            maxLength={70}
            placeholder="promo_…"
            spellcheck={false}
            autocomplete="off"
          />
        </label>
      </div>
      {offered.length === 0 && (
        <p class="hint">
          {tx('codes.noDiscounts', { link: <a href={`${href('/settings')}#promotion-codes`}>{t('codes.inSettings')}</a> })}
        </p>
      )}
      {error !== undefined && <Failure error={error} />}
      <button type="submit" disabled={busy}>
        {t('codes.make')}
      </button>
    </form>
  );
}

export function PartnerCodes({ partnership, program, groupName }: { partnership: Partnership; program: Program; groupName?: string }) {
  const ship = partnership.attributes;
  // Loaded again when the partnership's state changes: an acceptance may give it a code (auto_codes).
  const loaded = useLoad((signal) => loadCodes(partnership.id, signal), `${partnership.id}/${ship.state}`);
  const [toggling, setToggling] = useState<Code | null>(null);
  const [linking, setLinking] = useState<Code | null>(null);
  const [unlinking, setUnlinking] = useState<Code | null>(null);
  return (
    <section class="panel" aria-labelledby="codes-title">
      <h2 id="codes-title">{t('codes.title')}</h2>
      {ship.state !== 'accepted' && (
        <p class="warn">{t('codes.notAccepted', { state: stateWord(`partnershipState.${ship.state}`, ship.state) })}</p>
      )}
      <Show loaded={loaded}>
        {({ codes, discounts }) => (
          <>
            {codes.length ? (
              <>
                <Table
                  caption={t('codes.title')}
                  columns={codeColumns(discounts, { toggle: setToggling, link: setLinking, unlink: setUnlinking })}
                  rows={codes}
                />
                <p class="hint">{t('codes.disabledHint')}</p>
              </>
            ) : (
              <Empty title={t('codes.noneYet')}>
                <p>
                  {t('codes.noneText')} {program.partner_codes ? t('codes.theirOwn') : program.auto_codes ? '' : t('codes.settingsCan')}
                </p>
              </Empty>
            )}
            {toggling && <ToggleCode code={toggling} onClose={() => setToggling(null)} done={loaded.reload} />}
            {linking && <LinkPromotion code={linking} onClose={() => setLinking(null)} linked={loaded.reload} />}
            {unlinking && <UnlinkCode code={unlinking} onClose={() => setUnlinking(null)} done={loaded.reload} />}
            <NewCode
              partnershipId={partnership.id}
              // A discount of another group is for its partners' codes: this partner's choice is the program's and their group's.
              offered={discounts.filter((d) => d.attributes.group_id === null || d.attributes.group_id === ship.group_id)}
              groupName={groupName}
              made={loaded.reload}
            />
          </>
        )}
      </Show>
    </section>
  );
}
