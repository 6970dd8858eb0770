// A page in a chunk of its own, loaded when first shown. A chunk that no longer exists (the
// apps were updated while this tab was open) shows a sentence and a reload, not a blank page.

import { useEffect, useState } from 'preact/hooks';
import lazy from 'preact-iso/lazy';
import { Failure } from './ui.js';
import { say } from './words.js';

function PageUnavailable() {
  return <Failure error={new Error(say('api.outdated'))} retry={() => location.reload()} />;
}

export const lazyPage = <C,>(load: () => Promise<C>) => lazy(() => load().catch(() => PageUnavailable as unknown as C));

/**
 * A component fetched beside what shows it, once `when` holds: for a part that is no route's
 * child (a dialog, a sign-in's second step), where `lazy` would suspend with nobody to catch it.
 */
export function useLater<C>(load: () => Promise<C>, when = true): C | undefined {
  const [loaded, setLoaded] = useState<{ it: C }>();
  useEffect(() => {
    if (when && !loaded)
      load().then(
        (it) => setLoaded({ it }),
        () => setLoaded({ it: PageUnavailable as unknown as C }),
      );
  }, [when]);
  return loaded?.it;
}
