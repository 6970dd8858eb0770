// The prompt of step-up (docs/security.md): a call answered 403 step_up_required waits while
// the person gives a code (or their password), then is made again. The dialog is a chunk of
// its own: most sessions never see it.

import { useEffect, useState } from 'preact/hooks';
import { whenRefused } from './api.js';
import { lazyPart } from './lazy-page.js';

const Dialog = /* @__PURE__ */ lazyPart(() => import('./step-up-dialog.js').then((m) => m.StepUpDialog));

interface Asked {
  meta: Record<string, unknown>;
  answer: (proved: boolean) => void;
}

/** Mounted once by each app's signed-in shell. */
export function StepUpHost() {
  const [asked, setAsked] = useState<Asked>();
  useEffect(() => {
    whenRefused(async (error) =>
      error.code === 'step_up_required' ? new Promise((answer) => setAsked({ meta: error.meta ?? {}, answer })) : false,
    );
    return () => whenRefused(undefined);
  }, []);
  if (!asked) return null;
  const done = (proved: boolean) => {
    setAsked(undefined);
    asked.answer(proved);
  };
  return <Dialog meta={asked.meta} done={done} />;
}
