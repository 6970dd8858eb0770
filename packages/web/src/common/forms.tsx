// Forms: the one submit every form uses (busy while it runs, its error shown), the
// confirmation dialog (the platform's <dialog>, which traps focus and closes on Escape),
// and the pages outside an app's shell (signing in, setting a password, applying): a card
// with a heading and its form.

import type { ComponentChildren, TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

import { Failure } from './ui.js';
import { say } from './words.js';

function lockedMessage(err: unknown): unknown {
  if (err instanceof ApiError && err.code === 'account_locked' && err.retryAfter) {
    return new Error(say('forms.locked', { count: Math.ceil(err.retryAfter / 60) }));
  }
  return err;
}

/**
 * The end of a form that saves: its error, "Saved." once it did (or the sentence `done`
 * is, when it says more), and its button (none when the form has its own).
 */
export function Saving({
  error,
  done,
  busy,
  label,
}: {
  error: unknown;
  done: boolean | string | undefined;
  busy: boolean;
  label?: string;
}) {
  return (
    <>
      {error !== undefined && <Failure error={error} />}
      {done && (
        <p role="status" class="ok">
          {done === true ? say('forms.saved') : done}
        </p>
      )}
      {label && (
        <button type="submit" disabled={busy}>
          {label}
        </button>
      )}
    </>
  );
}

/** A page of its own, outside the shell: a heading, a form, its error; `brand` in Tally's place (a program's page: its logo or name). */
export function Card({ title, brand, children }: { title: string; brand?: ComponentChildren; children: ComponentChildren }) {
  return (
    <main id="main" class="card-page">
      <div class="card">
        <p class="brand">{brand ?? 'Tally'}</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** A form's submit: busy while it runs, its error shown; `run` gets the form's data and the form (to reset it). */
export function useSubmit(run: (form: FormData, el: HTMLFormElement) => Promise<void>) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const el = e.currentTarget;
      await run(new FormData(el), el);
    } catch (err) {
      setError(lockedMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, onSubmit };
}

export const text = (form: FormData, name: string) => String(form.get(name) ?? '');

export interface ConfirmProps {
  title: string;
  children?: ComponentChildren;
  confirm: string;
  danger?: boolean;
  /** A dialog for a longer form (a reward and its conditions): wider on a wide screen. */
  wide?: boolean;
  /** Resolves when done; a rejection is shown in the dialog, which stays open. */
  onConfirm: (form: FormData) => Promise<unknown>;
  onClose: () => void;
}

export function Confirm({ title, children, confirm, danger, wide, onConfirm, onClose }: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  // The dialog's own close event comes a task later: a click on another action in between
  // (the same row's "Churn" again, say) would open a new question that this late event
  // then closed. So our own buttons tell the page at once, and the event only tells it of
  // what they did not do (Escape), once.
  const told = useRef(false);
  const finish = () => {
    ref.current?.close();
    if (told.current) return;
    told.current = true;
    onClose();
  };
  const { error, busy, onSubmit } = useSubmit(async (form) => {
    await onConfirm(form);
    finish();
  });
  return (
    <dialog ref={ref} onClose={finish} aria-labelledby="dialog-title" class={wide ? 'wide' : undefined}>
      <form onSubmit={onSubmit}>
        <h2 id="dialog-title">{title}</h2>
        {children}
        {error !== undefined && <Failure error={error} />}
        <div class="actions">
          <button type="button" class="secondary" onClick={finish}>
            {say('forms.cancel')}
          </button>
          <button type="submit" class={danger ? 'danger' : ''} disabled={busy}>
            {confirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
