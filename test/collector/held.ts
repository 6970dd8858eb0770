// The fakes' holds: a provider's call done and its answer kept back until the test lets it go,
// so a test stops a caller between the provider's work and its commit without sleeping.

/** A call a fake has done and not answered yet (hold). */
export interface Held {
  taken: Promise<void>;
  release(): void;
}

/** A hold on the next call to a path: the fakes' way of stopping a caller between the provider's work and its answer. */
export function holder() {
  const holds = new Map<string, { take: () => void; released: Promise<void> }>();
  return {
    hold(path: string): Held {
      let take = () => {};
      let release = () => {};
      const taken = new Promise<void>((r) => (take = r));
      const released = new Promise<void>((r) => (release = r));
      holds.set(path, { take, released });
      return { taken, release };
    },
    /** Waits, if the call to `path` is held, until it is released. */
    async wait(path: string): Promise<void> {
      const found = [...holds.keys()].find((p) => path.startsWith(p));
      if (found === undefined) return;
      const h = holds.get(found)!;
      holds.delete(found);
      h.take();
      await h.released;
    },
  };
}
