// Settings' partner links (docs/links.md): the UTM template every new link gets, whether
// partners choose their links' keys and within which rules, and whether a chosen key waits
// for an owner's approval.

import { useState } from 'preact/hooks';
import { api, type Answer } from '../../common/api.js';
import { Saving, text, useSubmit } from '../../common/forms.js';
import { useLoad } from '../../common/use-api.js';
import { Show } from '../../common/ui.js';
import { t } from './words.js';

type Rules = Answer<'/v1/link_settings'>['data']['attributes'];
const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

function RulesForm({ rules, saved }: { rules: Rules; saved: () => void }) {
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    setDone(false);
    const utm = Object.fromEntries(UTM.map((f) => [f, text(form, f).trim()]).filter(([, v]) => v));
    await api.PATCH('/v1/link_settings', {
      body: {
        utm,
        custom_keys: form.get('custom_keys') === 'on',
        approval_required: form.get('approval_required') === 'on',
        key_min_length: Number(text(form, 'key_min_length')),
        key_max_length: Number(text(form, 'key_max_length')),
        key_characters: text(form, 'key_characters') === 'letters_digits' ? 'letters_digits' : 'letters_digits_dash',
        reserved_keys: text(form, 'reserved_keys')
          .split(/[\s,]+/)
          .filter(Boolean),
      },
    });
    setDone(true);
    saved();
  });
  return (
    <form class="link-rules" onSubmit={onSubmit} aria-labelledby="link-rules-title">
      <h3 id="link-rules-title">{t('links.rules')}</h3>
      <fieldset>
        <legend>{t('links.utm')}</legend>
        <div class="fields">
          {UTM.map((f) => (
            <label>
              {f}
              <input name={f} defaultValue={rules.utm[f] ?? ''} maxLength={100} spellcheck={false} autocomplete="off" />
            </label>
          ))}
        </div>
      </fieldset>
      <label class="check">
        <input type="checkbox" name="custom_keys" defaultChecked={rules.custom_keys} />
        <span>{t('links.customKeys')}</span>
      </label>
      <label class="check">
        <input type="checkbox" name="approval_required" defaultChecked={rules.approval_required} />
        <span>{t('links.approval')}</span>
      </label>
      <div class="fields">
        <label class="short">
          {t('links.shortest')} <span class="hint">{t('range', { min: 2, max: 64 })}</span>
          <input name="key_min_length" type="number" min={2} max={64} defaultValue={String(rules.key_min_length)} required />
        </label>
        <label class="short">
          {t('links.longest')} <span class="hint">{t('range', { min: 2, max: 64 })}</span>
          <input name="key_max_length" type="number" min={2} max={64} defaultValue={String(rules.key_max_length)} required />
        </label>
        <label>
          {t('links.characters')}
          <select name="key_characters" defaultValue={rules.key_characters}>
            <option value="letters_digits_dash">{t('links.withDash')}</option>
            <option value="letters_digits">{t('links.lettersDigits')}</option>
          </select>
        </label>
        <label>
          {t('links.reserved')} <span class="hint">{t('links.reservedHint')}</span>
          <input name="reserved_keys" defaultValue={rules.reserved_keys.join(' ')} spellcheck={false} autocomplete="off" />
        </label>
      </div>
      <Saving error={error} done={done} busy={busy} label={t('links.save')} />
    </form>
  );
}

export function LinkSettings() {
  const loaded = useLoad((signal) => api.GET('/v1/link_settings', { signal }), 'link-settings');
  return (
    <section class="panel" aria-labelledby="links-title">
      <h2 id="links-title">{t('sections.links')}</h2>
      <Show loaded={loaded}>{(answer) => <RulesForm rules={answer.data.attributes} saved={loaded.reload} />}</Show>
    </section>
  );
}
