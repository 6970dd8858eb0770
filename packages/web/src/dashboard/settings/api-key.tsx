// A billing platform's API key the program keeps (PATCH /v1/program), in one component over
// the field's name: the Stripe key Tally makes coupons and promotion codes with (Settings →
// Promotion codes), the Lemon Squeezy key it reads an order's discount code with (its card
// in Settings → Integrations). Typed in a password field, never shown again once saved:
// only its hint (`<field>_hint`). Removed behind a confirmation. A key the API refuses is
// refused in its words, under the form.

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Confirm, Saving, text, useSubmit } from '../../common/forms.js';
import { t, tx } from './words.js';

type Program = Answer<'/v1/program'>['data'];
export type KeyField = 'stripe_api_key' | 'lemonsqueezy_api_key';

export interface ApiKeyProps {
  field: KeyField;
  program: Program;
  saved: () => void;
  /** "Stripe API key": the heading, and the confirmation's question. */
  title: string;
  /** Its heading's level where it stands: a panel's part (3) or a part of a platform's card (4). */
  level: 3 | 4;
  /** What the key is for, and what happens without it. */
  children: ComponentChildren;
  /** The field's label: set, and replacing the one set. */
  label: { set: string; replace: string };
  /** What a key looks like and where to get it, beside the label. */
  where: ComponentChildren;
  /** The longest key the API takes. */
  maxLength: number;
  /** Said once it is removed. */
  removed: string;
  /** What removing it stops, in the confirmation. */
  removing: ComponentChildren;
}

export function ApiKey({ field, program, saved, title, level, children, label, where, maxLength, removed, removing }: ApiKeyProps) {
  const hint = program.attributes[`${field}_hint`];
  const name = field.replace(/_api_key$/, '');
  const Heading = level === 3 ? 'h3' : 'h4';
  const [said, setSaid] = useState<'saved' | 'removed' | null>(null);
  const [asking, setAsking] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form, el) => {
    setSaid(null);
    await api.PATCH('/v1/program', { body: { [field]: text(form, field).trim() } });
    el.reset();
    setSaid('saved');
    saved();
  });
  return (
    <section class={`api-key ${name}-key`} aria-labelledby={`${name}-key-title`}>
      <Heading id={`${name}-key-title`}>{title}</Heading>
      {children}
      <p>{hint ? tx('apiKey.set', { hint: <code>{hint}</code> }) : t('apiKey.none')}</p>
      <form onSubmit={onSubmit}>
        <label>
          {hint ? label.replace : label.set} <span class="hint">({where})</span>
          <input name={field} type="password" required maxLength={maxLength} autocomplete="off" spellcheck={false} />
        </label>
        <Saving error={error} done={said === 'saved'} busy={busy} />
        {said === 'removed' && (
          <p role="status" class="ok">
            {removed}
          </p>
        )}
        <div class="buttons">
          <button type="submit" disabled={busy}>
            {hint ? t('apiKey.replace') : t('apiKey.save')}
          </button>
          {hint && (
            <button type="button" class="secondary" onClick={() => setAsking(true)}>
              {t('apiKey.remove')}
            </button>
          )}
        </div>
      </form>
      {asking && (
        <Confirm
          title={t('apiKey.removeTitle', { title })}
          confirm={t('apiKey.remove')}
          danger
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            await api.PATCH('/v1/program', { body: { [field]: null } });
            setSaid('removed');
            saved();
          }}
        >
          <p>{removing}</p>
        </Confirm>
      )}
    </section>
  );
}
