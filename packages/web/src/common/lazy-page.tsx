// A page in a chunk of its own, loaded when first shown. A chunk that no longer exists (the
// apps were updated while this tab was open) shows a sentence and a reload, not a blank page.

import lazy from 'preact-iso/lazy';
import { Failure } from './ui.js';
import { say } from './words.js';

function PageUnavailable() {
  return <Failure error={new Error(say('api.outdated'))} retry={() => location.reload()} />;
}

export const lazyPage = <C,>(load: () => Promise<C>) => lazy(() => load().catch(() => PageUnavailable as unknown as C));
