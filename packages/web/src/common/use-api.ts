// Data for a component: the answer, the error, whether it is loading, and a way to ask
// again. A newer request wins: an older answer arriving late never replaces it.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: (() => Promise<T>) | null, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: load !== null });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    if (!load) return;
    const mine = ++latest.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => mine === latest.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => mine === latest.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
    // `key` names what is loaded; `load` is a new closure on every render.
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}
