// Kinds of e-mail as labelled checkboxes saved together: the owner's in the dashboard, the
// partner's in the portal (docs/notifications.md). "Not saved yet" until the button is
// pressed; then the state the API answered, with "Saved.".

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Saving, useSubmit } from './forms.js';

export interface EmailChoicesProps<K extends string> {
  /** The preferences as the API answered them: each kind, in the order shown. */
  saved: Record<K, boolean>;
  /** A kind in words: what happens, then more of it (how often it comes). */
  words: (kind: K) => { title: string; text: string };
  legend: string;
  unsaved: string;
  save: string;
  /** Sends the choices; resolves to the preferences as stored. */
  store: (chosen: Record<K, boolean>) => Promise<Record<K, boolean>>;
  /** The element naming the form (its heading). */
  labelledBy: string;
  readOnly?: boolean;
  class?: string;
  /** What the form shows before its checkboxes. */
  children?: ComponentChildren;
}

export function EmailChoices<K extends string>(props: EmailChoicesProps<K>) {
  const { saved, words, legend, unsaved, save, store, labelledBy, readOnly = false, children } = props;
  const [chosen, setChosen] = useState(saved);
  const [stored, setStored] = useState(saved);
  const [done, setDone] = useState(false);
  const kinds = Object.keys(saved) as K[];
  const changed = kinds.some((k) => chosen[k] !== stored[k]);
  const { error, busy, onSubmit } = useSubmit(async () => {
    setDone(false);
    const answered = await store(chosen);
    setStored(answered);
    setChosen(answered);
    setDone(true);
  });
  return (
    <form class={props.class} onSubmit={onSubmit} aria-labelledby={labelledBy}>
      {children}
      <fieldset class="choices" disabled={readOnly}>
        <legend>{legend}</legend>
        {kinds.map((kind) => {
          const { title, text } = words(kind);
          return (
            <label class="check" key={kind}>
              <input
                type="checkbox"
                name={kind}
                checked={chosen[kind]}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setChosen((c) => ({ ...c, [kind]: on }));
                  setDone(false);
                }}
              />
              <span>
                <strong>{title}.</strong> {text}
              </span>
            </label>
          );
        })}
      </fieldset>
      {changed && !busy && <p class="hint">{unsaved}</p>}
      {!readOnly && <Saving error={error} done={done} busy={busy} label={save} />}
    </form>
  );
}
