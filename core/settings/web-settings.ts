import { readBatchSubmissionSettings, type BatchSubmissionSettings } from './batch-submission-settings.ts';
import { readDataEncryptionKeys, isLocalDevelopment } from './encryption-key.ts';
import { readAllowPrivateUrls } from './fetch-settings.ts';
import { readDocumentSettings, type DocumentSettings } from './document-settings.ts';
import { readLibrarySettings, type LibrarySettings } from './library-settings.ts';
import { readStatusOperationSettings, type StatusOperationSettings } from './credential-status-settings.ts';
import { readIdempotencyStaleClaimMinutes, readIssuanceSettings, type IssuanceSettings } from './issuance-settings.ts';
import { readVerifyPageSettings, type VerifyPageSettings } from './verify-page-settings.ts';
import { readEnum, readExactTrue, readHttpUrl, readInteger, readText, type EnvSource } from './env-readers.ts';

export type TenantMode = 'open' | 'closed';
export type TenantClaimFormat = 'array_first' | 'string';

export interface AuthSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** Browser-facing authorization endpoint when it differs from the discovered one. */
  authorizationUrl?: string;
  serviceAccountAudience: string;
  tenantMode: TenantMode;
  tenantClaimName: string;
  tenantClaimFormat: TenantClaimFormat;
  sessionMaxAgeSeconds: number;
  /** Closed mode: how often a browser session's access token is refreshed to re-read the group claim. */
  sessionRefreshSeconds: number;
  /** Cookies get `Secure` outside local development. */
  secureCookies: boolean;
}

/** Settings every function needs. Parsed once per process (or per edge isolate). */
export interface WebSettings {
  appUrl: string;
  dataEncryptionKey: string;
  /** DATA_ENCRYPTION_KEY_PREVIOUS: only while a key rotation is under way. */
  previousDataEncryptionKey?: string;
  maxPageLimit: number;
  defaultPageLimit: number;
  maxRequestBodyBytes: number;
  allowPrivateUrls: boolean;
  /** SYSTEM_SERVICES_SHOW_BASE_URL=true shows tenants the internal baseUrl of system service instances. */
  showSystemServiceBaseUrl: boolean;
  documents: DocumentSettings;
  library: LibrarySettings;
  credentialStatus: StatusOperationSettings;
  /** Status purposes, tag limits: shared with the worker, which issues batch items. */
  issuance: IssuanceSettings;
  idempotencyStaleClaimMinutes: number;
  auth: AuthSettings;
  verifyBounds: VerifyBounds;
  /** The /verify page: which hosts credential templates may load from. */
  verifyPage: VerifyPageSettings;
  batches: BatchSubmissionSettings;
}

/** The public verify route fetches URLs for strangers: requests per client per minute, and verifications at once in this process. */
export interface VerifyBounds {
  ratePerMinute: number;
  maxConcurrency: number;
}

export const readWebSettings = (env: EnvSource, warn: (message: string) => void = console.warn): WebSettings => {
  const maxPageLimit = readInteger(env, 'API_MAX_PAGE_LIMIT', 100, { min: 1, max: 10000 });
  const maxRequestBodyBytes = readInteger(env, 'MAX_REQUEST_BODY_BYTES', 5_242_880, { min: 1024 });
  return {
    appUrl: readHttpUrl(env, 'RI_APP_URL'),
    ...readDataEncryptionKeys(env),
    maxPageLimit,
    defaultPageLimit: Math.min(20, maxPageLimit),
    maxRequestBodyBytes,
    allowPrivateUrls: readAllowPrivateUrls(env, warn),
    showSystemServiceBaseUrl: readExactTrue(env, 'SYSTEM_SERVICES_SHOW_BASE_URL'),
    documents: readDocumentSettings(env, warn),
    credentialStatus: readStatusOperationSettings(env, warn),
    issuance: readIssuanceSettings(env, warn),
    idempotencyStaleClaimMinutes: readIdempotencyStaleClaimMinutes(env),
    verifyBounds: {
      ratePerMinute: readInteger(env, 'VERIFY_RATE_LIMIT_PER_MINUTE', 60, { min: 1, max: 1_000_000 }),
      maxConcurrency: readInteger(env, 'VERIFY_MAX_CONCURRENCY', 16, { min: 1, max: 10_000 }),
    },
    verifyPage: readVerifyPageSettings(env),
    library: readLibrarySettings(env),
    auth: {
      issuer: readHttpUrl(env, 'AUTH_OIDC_ISSUER'),
      clientId: readText(env, 'AUTH_OIDC_CLIENT_ID') ?? 'credential-support-service',
      clientSecret: readText(env, 'AUTH_OIDC_CLIENT_SECRET'),
      authorizationUrl: readText(env, 'AUTH_OIDC_AUTHORIZATION_URL')
        ? readHttpUrl(env, 'AUTH_OIDC_AUTHORIZATION_URL')
        : undefined,
      serviceAccountAudience: readText(env, 'AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE') ?? 'credential-support-service',
      tenantMode: readEnum(env, 'TENANT_MODE', ['open', 'closed'] as const, 'open'),
      tenantClaimName: readText(env, 'TENANT_CLAIM_NAME') ?? 'groups',
      tenantClaimFormat: readEnum(env, 'TENANT_CLAIM_FORMAT', ['array_first', 'string'] as const, 'array_first'),
      sessionMaxAgeSeconds: readInteger(env, 'SESSION_MAX_AGE_SECONDS', 8 * 3600, { min: 60 }),
      sessionRefreshSeconds: readInteger(env, 'SESSION_REFRESH_SECONDS', 300, { min: 10, max: 300 }),
      secureCookies: !isLocalDevelopment(env),
    },
    batches: readBatchSubmissionSettings(env, maxRequestBodyBytes),
  };
};
