// The shape of a language's catalogue: English's keys, each with its own words.
export type Catalogue<T> = { [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> };
