import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { renderTemplates } from '../../db/schema/index.ts';
import { bytesToHex, sha256Hex } from '../crypto/encoding.ts';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { sha256OfMultibase } from '../verification/digest.ts';
import { TEMPLATE_MAX_CHARS } from './template-limits.ts';

export interface PublishedTemplateDeps {
  db: Queryable;
  fetcher: Fetcher;
  logger: Logger;
  correlationId?: string;
}

/** Content-addressed (by verified SHA-256), so an entry never goes stale; bounded so it cannot grow. */
const CACHE_LIMIT = 64;
const cache = new Map<string, string>();
const remember = (digestHex: string, html: string) => {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(digestHex, html);
};

const notPublished = () => new ApiError(404, 'url: not a render template published by this service', 'TEMPLATE_NOT_FOUND');
const unavailable = () => new ApiError(502, 'The render template could not be read from its storage service', 'TEMPLATE_UNAVAILABLE');

/**
 * The HTML of a render template this service published, found by the URL a credential's render
 * method names (and, when given, its digestMultibase). Only a URL recorded as some template's
 * storage URL is ever fetched, so the public verify page cannot be used to fetch anything else; the
 * content must hash to the recorded digest. Template content is public in its storage service (it
 * is stored unencrypted), so serving it by its exact URL discloses nothing new.
 */
export const readPublishedTemplate = async (deps: PublishedTemplateDeps, url: string, digestMultibase?: string): Promise<string> => {
  const [row] = await deps.db
    .select({ storageUrl: renderTemplates.storageUrl, digestMultibase: renderTemplates.digestMultibase })
    .from(renderTemplates)
    .where(eq(renderTemplates.storageUrl, url))
    .limit(1);
  const recorded = row ? sha256OfMultibase(row.digestMultibase) : undefined;
  if (!row || !recorded) throw notPublished();
  const recordedHex = bytesToHex(recorded);
  if (digestMultibase !== undefined) {
    const asked = sha256OfMultibase(digestMultibase);
    if (!asked || bytesToHex(asked) !== recordedHex) throw notPublished();
  }
  const cached = cache.get(recordedHex);
  if (cached !== undefined) return cached;

  let bytes: Uint8Array;
  try {
    const response = await deps.fetcher(row.storageUrl);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    deps.logger.warn('Verify page: a published render template could not be read', { correlationId: deps.correlationId, url: row.storageUrl, error: String(error) });
    throw unavailable();
  }
  if ((await sha256Hex(bytes)) !== recordedHex) {
    deps.logger.warn('Verify page: a published render template no longer matches its recorded digest', { correlationId: deps.correlationId, url: row.storageUrl });
    throw unavailable();
  }
  const html = new TextDecoder().decode(bytes);
  if (html.length > TEMPLATE_MAX_CHARS) throw unavailable();
  remember(recordedHex, html);
  return html;
};
