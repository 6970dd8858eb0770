// The pieces of the pages outside an app's shell (signing in, setting a password,
// applying): a card with a heading, and a form's submit with its busy and error states.

import type { JSX, TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from './api.js';

function lockedMessage(err: unknown): unknown {
  if (err instanceof ApiError && err.code === 'account_locked' && err.retryAfter) {
    const minutes = Math.ceil(err.retryAfter / 60);
    return new Error(`Too many wrong passwords in a row. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
  return err;
}

/** A page of its own, outside the shell: a heading, a form, its error. */
export function Card({ title, children }: { title: string; children: JSX.Element | JSX.Element[] }) {
  return (
    <main id="main" class="card-page">
      <div class="card">
        <p class="brand">Tally</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function useSubmit(run: (form: FormData) => Promise<void>) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await run(new FormData(e.currentTarget));
    } catch (err) {
      setError(lockedMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, onSubmit };
}

export const text = (form: FormData, name: string) => String(form.get(name) ?? '');

