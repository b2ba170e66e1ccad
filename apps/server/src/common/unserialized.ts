/**
 * A wire type (libs/shared) as a service holds it before Nest writes it as JSON: its timestamps (the
 * `…At` fields, at any depth) may still be Dates, which JSON writes as the ISO strings the wire type
 * names. A route that answers with an entity declares this, so the compiler checks the entity against
 * the wire type.
 */
export type Unserialized<T> = T extends (infer Item)[]
  ? Unserialized<Item>[]
  : T extends object
    ? { [K in keyof T]: K extends `${string}At` ? T[K] | Date : Unserialized<T[K]> }
    : T;
