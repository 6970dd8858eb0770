// Data for a component: the answer, the error, whether it is loading, and a way to ask
// again. `load` gets an AbortSignal to pass to its calls: a newer request (another key, a
// reload) or the component going away cancels the one in flight, whose end is then
// ignored, answer or error alike.

import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: ((signal: AbortSignal) => Promise<T>) | null, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: load !== null,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!load) {
      // Nothing to load any more: a request the last key started was cancelled below.
      setState((s) => (s.loading ? { ...s, loading: false } : s));
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load(signal).then(
      (data) => signal.aborted || setState({ data, error: undefined, loading: false }),
      (error: unknown) => signal.aborted || setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => controller.abort();
    // `key` names what is loaded; `load` is a new closure on every render.
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}
