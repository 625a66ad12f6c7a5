import { bytesToHex } from '../crypto/encoding.ts';
import { ApiError } from '../errors.ts';
import { sha256OfMultibase } from '../verification/digest.ts';
import { adapterFor, resolveIdrInstance } from '../identifier-links/idr-instance.ts';
import type { LinkInput } from '../identifier-links/link-fields.ts';
import { loadIdentifier, type LinkDeps } from '../identifier-links/link-repository.ts';
import { publishLinks } from '../identifier-links/publish-links.ts';
import type { IssuanceWarning } from './conformity-warnings.ts';
import { linkTypeOfCoreType } from './credential-link-type.ts';
import type { EntityLinks } from './entity-links.ts';
import type { PublishingOptions } from './issuance-request.ts';

/** Query parameters the verify page reads; a caller's human URL never carries its own. */
const RESERVED_VERIFY_PARAMS = ['uri', 'digestMultibase', 'hash', 'decryptionKey', 'q'];

export interface StoredCopy {
  uri: string;
  digestMultibase: string;
  encrypted: boolean;
  /** Only when the issuance chose a human link that carries the key (publishingOptions.humanLinkIncludesKey). */
  decryptionKey?: string;
}

/** `RI_APP_URL` without query, fragment or trailing slashes, plus `/verify`. */
export const defaultVerifyPage = (appUrl: string) => {
  const url = new URL(appUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/verify`;
};

/**
 * The human verification link: the verify page with the credential's location and digest in `q`.
 * By default the decryption key is not part of it (whoever holds the link must get the key another way).
 * When the issuance chose a key-carrying link, it is UNTP's QR-link form `{"payload":{"uri","key","hash"}}`
 * (`hash`: the SHA-256 in hexadecimal), which the page reads and then takes out of its address bar.
 */
export const humanVerificationHref = (base: string, stored: StoredCopy) => {
  const url = new URL(base);
  for (const name of RESERVED_VERIFY_PARAMS) url.searchParams.delete(name);
  const sha256 = stored.decryptionKey ? sha256OfMultibase(stored.digestMultibase) : undefined;
  const payload = stored.decryptionKey
    ? { uri: stored.uri, key: stored.decryptionKey, ...(sha256 ? { hash: bytesToHex(sha256) } : { digestMultibase: stored.digestMultibase }) }
    : { uri: stored.uri, digestMultibase: stored.digestMultibase };
  url.searchParams.set('q', JSON.stringify({ payload }));
  return url.href;
};

/** The links of a credential (peer §1.7): optional machine verification, the credential itself, the human view. */
const credentialLinks = (options: PublishingOptions, linkType: string, linkTitle: string, humanBase: string, stored: StoredCopy): LinkInput[] => [
  ...(options.machineVerificationUrl
    ? [{ href: options.machineVerificationUrl, rel: 'gs1:verificationService', type: 'text/plain', title: 'VCKit verify service' }]
    : []),
  {
    href: stored.uri,
    rel: linkType,
    type: 'application/json',
    title: linkTitle,
    ...(options.hreflang ? { hreflang: options.hreflang } : {}),
    ...(options.additionalRels ? { additionalRels: options.additionalRels } : {}),
    ...(options.public !== undefined ? { public: options.public } : {}),
    ...(options.accessRole ? { accessRole: options.accessRole } : {}),
    ...(stored.encrypted ? { encryptionMethod: 'AES-256' as const } : {}),
  },
  {
    href: humanVerificationHref(humanBase, stored),
    rel: linkType,
    type: 'text/html',
    title: linkTitle,
    ...(options.accessRole ? { accessRole: options.accessRole } : {}),
  },
];

const warning = (code: string, message: string): IssuanceWarning => ({ code, message });

export interface PublishInput {
  tenantId: string;
  options: PublishingOptions;
  entities: EntityLinks;
  dataModelName: string;
  /** The credential's UNTP core type (its default link type), or null for any other type. */
  coreCredentialType: string | null;
  stored: StoredCopy;
  appUrl: string;
}

/**
 * Step 8 (after the record is written): publishes the credential's links under the identifier of its
 * primary entity, through the identifier-links publish (so each link is recorded as any other).
 * Never throws: anything that stops publishing becomes a warning of the issuance answer.
 */
export const publishCredential = async (
  deps: LinkDeps & { correlationId?: string },
  input: PublishInput,
): Promise<{ warnings: IssuanceWarning[]; resolverUri?: string }> => {
  const { options, entities } = input;
  if (!entities.primary) {
    return { warnings: [warning('PUBLISH_REFERENCE_MISSING', "The credential's subject names none of this tenant's identifiers; nothing was published")] };
  }
  const candidates = entities.primary.identifiers.filter((m) => options.identifierSchemeId === undefined || m.schemeId === options.identifierSchemeId);
  if (candidates.length === 0) {
    return { warnings: [warning('PUBLISH_IDENTIFIER_UNKNOWN', `No identifier of the ${entities.primary.kind} under publishingOptions.identifierSchemeId is named by the credential; nothing was published`)] };
  }
  if (new Set(candidates.map((c) => c.schemeId)).size > 1) {
    return { warnings: [warning('PUBLISH_IDENTIFIER_AMBIGUOUS', `The ${entities.primary.kind} is named by identifiers of several schemes; set publishingOptions.identifierSchemeId`)] };
  }
  const target = candidates[0]!;
  try {
    const identifier = await loadIdentifier(deps.db, input.tenantId, target.identifierId);
    const instance = await resolveIdrInstance(deps, input.tenantId, [identifier.scheme.idrServiceInstanceId, identifier.scheme.registrar.idrServiceInstanceId]);
    const { config } = await adapterFor(deps, instance);
    const linkType = options.linkType ?? config.defaultLinkType ?? linkTypeOfCoreType(input.coreCredentialType);
    const linkTitle = options.linkTitle ?? input.dataModelName;
    const humanBase = options.humanVerificationUrl ?? defaultVerifyPage(input.appUrl);
    await publishLinks(deps, input.tenantId, target.identifierId, {
      links: credentialLinks(options, linkType, linkTitle, humanBase, input.stored),
      qualifierPath: options.qualifierPath,
    });
    const resolverUri = `${config.baseUrl.replace(/\/+$/, '')}/${identifier.scheme.registrar.namespace}/${identifier.scheme.primaryKey}/${identifier.value}`;
    return { warnings: [], resolverUri };
  } catch (error) {
    if (error instanceof ApiError && error.status === 502) {
      return { warnings: [warning('IDR_PUBLISH_UNCONFIRMED', `The identity resolver did not confirm the links: ${error.message}`)] };
    }
    if (error instanceof ApiError) {
      const code = error.code === 'SERVICE_INSTANCE_NOT_FOUND' ? 'PUBLISH_IDR_UNAVAILABLE' : 'IDR_PUBLISH_FAILED';
      return { warnings: [warning(code, `The links were not published: ${error.message}`)] };
    }
    deps.logger.warn('Publishing an issued credential failed', { correlationId: deps.correlationId, identifierId: target.identifierId, error: String(error) });
    return { warnings: [warning('IDR_PUBLISH_UNCONFIRMED', 'The links may not have been published; the failure is logged')] };
  }
};
