// Promotion codes as the web apps read them (docs/codes.md): what a code may be, and every
// page of a short list the API pages by 50 (a partnership's codes, a program's discounts,
// a partner's partnerships).

/** A code's form, for an input's `pattern`: 3 to 32 ASCII letters, digits, - and _. */
export const CODE_PATTERN = '[A-Za-z0-9_\\-]{3,32}';

export type ListPage<T> = { data: T[]; meta: { pagination: { has_more: boolean } } };

/** Every record of a list, page after page (`page` asks for the one after the given id). */
export async function everyPage<T extends { id: string }>(page: (after: string | undefined) => Promise<ListPage<T>>): Promise<T[]> {
  const all: T[] = [];
  for (let after: string | undefined; ; ) {
    const got = await page(after);
    all.push(...got.data);
    const last = got.data.at(-1);
    if (!got.meta.pagination.has_more || !last) return all;
    after = last.id;
  }
}
