// The shape of a language's catalogue: English's keys, each with its own words, and any
// plural form its grammar has that English lacks (French and Spanish `_many`, for a million).
type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type PluralBase<K> = K extends `${infer B}_${PluralForm}` ? B : never;
export type Catalogue<T> = { [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> } & {
  [K in `${PluralBase<keyof T & string>}_${PluralForm}`]?: string;
};
