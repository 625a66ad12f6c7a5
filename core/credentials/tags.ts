import { badRequest } from '../errors.ts';

/** Lower-case words of letters and digits joined by single hyphens (peer §4.5). */
const TAG_GRAMMAR = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface TagLimits {
  maxTagsPerRecord: number;
  maxTagLength: number;
}

/**
 * The one check of a record's tags on input (issue, batch item, library register, tag replace): an
 * array of at most `maxTagsPerRecord` distinct tags, each of the grammar and at most `maxTagLength`
 * characters. Messages name the path and the rule, never the value. Returns the tags in given order.
 */
export const assertValidTags = (tags: unknown, limits: TagLimits, field = 'tags'): string[] => {
  if (!Array.isArray(tags)) throw badRequest(`${field}: must be an array of strings`);
  if (tags.length > limits.maxTagsPerRecord) throw badRequest(`${field}: must hold at most ${limits.maxTagsPerRecord} tags`);
  const seen = new Map<string, number>();
  tags.forEach((tag, i) => {
    const at = `${field}[${i}]`;
    if (typeof tag !== 'string') throw badRequest(`${at}: must be a string`);
    if (tag.length === 0) throw badRequest(`${at}: must not be empty`);
    if (tag.length > limits.maxTagLength) throw badRequest(`${at}: must be at most ${limits.maxTagLength} characters`);
    if (!TAG_GRAMMAR.test(tag)) throw badRequest(`${at}: must be lower-case letters and digits in words joined by single hyphens`);
    const first = seen.get(tag);
    if (first !== undefined) throw badRequest(`${at}: must not repeat a tag; duplicates ${field}[${first}]`);
    seen.set(tag, i);
  });
  return tags as string[];
};
