/**
 * Maximum length (UTF-16 code units, as JSON counts them) of every text field, by kind; checked before
 * the database (a 1 MB name is no longer "index row too large") and shown as maxLength in OpenAPI.
 * `name` (the default) keeps a three-column unique index of 4-byte characters under PostgreSQL's
 * 2,704-byte btree row limit. The README lists them.
 */
export const TEXT_LIMITS = {
  /** names, keys, values, link fields (rel, type, title, hreflang), tags, media types: the default */
  name: 200,
  /** record ids (ours are 24–32 characters) */
  id: 128,
  /** validation patterns */
  pattern: 1024,
  /** URLs and adapter settings */
  url: 2048,
  /** free-text descriptions */
  description: 4096,
  /** render-template HTML (see core/render-templates/template-limits.ts for its nesting depth) */
  template: 131_072,
} as const;
export type TextKind = keyof typeof TEXT_LIMITS;

export const tooLongMessage = (max: number) => `must be at most ${max} characters`;
