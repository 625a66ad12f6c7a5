import type { Database } from '../../db/client.ts';
import type { DomainDeps } from '../deps.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import type { DocumentSettings } from '../settings/document-settings.ts';
import type { IssuanceSettings } from '../settings/issuance-settings.ts';
import { createPayloadChecks, type PayloadChecks } from './payload-validation.ts';

/** What issuance needs, in the web process and in the worker alike: the domain deps and a little more. */
export interface IssuanceDeps extends DomainDeps {
  correlationId?: string;
  payloadChecks: PayloadChecks;
  /** RI_APP_URL (the default verify page of published links) and the issuance settings. */
  appUrl: string;
  issuance: IssuanceSettings;
}

/** The settings of a process that issues (web, worker). */
export interface IssuingSettings {
  appUrl: string;
  allowPrivateUrls: boolean;
  documents: DocumentSettings;
  issuance: IssuanceSettings;
}

const checksByFetcher = new WeakMap<Fetcher, PayloadChecks>();

/**
 * Payload checks live as long as the process's fetcher: schemas are compiled and contexts processed
 * once per process (or edge isolate), not per request.
 */
export const payloadChecksFor = (fetcher: Fetcher, documents: DocumentSettings): PayloadChecks => {
  let checks = checksByFetcher.get(fetcher);
  if (!checks) {
    checks = createPayloadChecks(fetcher, documents);
    checksByFetcher.set(fetcher, checks);
  }
  return checks;
};

/** Issuance deps from a process's core deps (`core/deps.ts`). */
export const issuanceDeps = (
  deps: { db: Database; secretBox: SecretBox; fetcher: Fetcher; logger: Logger; settings: IssuingSettings },
  correlationId?: string,
): IssuanceDeps => ({
  db: deps.db,
  box: deps.secretBox,
  fetcher: deps.fetcher,
  logger: deps.logger,
  allowPrivateUrls: deps.settings.allowPrivateUrls,
  correlationId,
  payloadChecks: payloadChecksFor(deps.fetcher, deps.settings.documents),
  appUrl: deps.settings.appUrl,
  issuance: deps.settings.issuance,
});
