// A page in a chunk of its own, loaded when first shown. A chunk that no longer exists (the
// apps were updated while this tab was open) shows a sentence and a reload, not a blank page.

import type { ComponentType, FunctionComponent, JSX } from 'preact';
import lazy, { ErrorBoundary } from 'preact-iso/lazy';
import { Failure } from './ui.js';
import { say } from './words.js';

function PageUnavailable() {
  return <Failure error={new Error(say('api.outdated'))} retry={() => location.reload()} />;
}

export const lazyPage = <C,>(load: () => Promise<C>) => lazy(() => load().catch(() => PageUnavailable as unknown as C));

/**
 * A part in a chunk of its own that is no route's child (a dialog, a sign-in's second step):
 * its own boundary waits for the chunk, where `lazy` alone would suspend with nobody to
 * catch it (an uncaught promise, and the part's first showing lost).
 */
export function lazyPart<P>(load: () => Promise<ComponentType<P>>): FunctionComponent<P> {
  const Part = lazyPage(load) as unknown as ComponentType<P>;
  return (props) => (
    <ErrorBoundary>
      <Part {...(props as P & JSX.IntrinsicAttributes)} />
    </ErrorBoundary>
  );
}
