import * as z from 'zod';
import { badRequest } from '../errors.ts';
import { ACCESS_ROLES, isLanguageTag } from '../identifier-links/link-vocabulary.ts';
import { publicUrlProblem } from '../net/public-url.ts';
import { STATUS_PURPOSES, type IssuanceSettings, type StatusPurpose } from '../settings/issuance-settings.ts';
import { TEXT_LIMITS, tooLongMessage, type TextKind } from '../text-limits.ts';
import { issuePath } from '../validation/issue-path.ts';
import { assertPayloadSize } from './payload-limit.ts';
import { assertValidTags } from './tags.ts';

/**
 * The body of `POST /credentials` and of every batch item (decisions.md "Credentials", peer §1.1): one
 * schema, so a batch item is refused exactly as the single request would be. Unknown members are
 * dropped; `null` where an object or a value is expected is refused.
 */
const expected = (what: string) => (issue: { input?: unknown }) =>
  issue.input === null ? 'must not be null' : issue.input === undefined ? 'is required' : `must be ${what}`;

const limited = (kind: TextKind) => z.string({ error: expected('a string') }).max(TEXT_LIMITS[kind], tooLongMessage(TEXT_LIMITS[kind]));
const nonBlank = () => limited('name').refine((v) => v.trim().length > 0, 'must contain a non-whitespace character');
const id = () => limited('id').min(1, 'must not be empty');
const flag = () => z.boolean({ error: expected('a boolean') });
const verificationUrl = () =>
  limited('url').superRefine((v, ctx) => {
      const problem = publicUrlProblem(v, true);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const jsonObject = () => z.record(z.string(), z.unknown(), { error: expected('a JSON object') });

const StorageOptionsSchema = z.object(
  {
    serviceInstanceId: id().optional(),
    encrypt: flag().optional().describe('Default true: anything but an explicit false encrypts'),
  },
  { error: expected('an object') },
);

const PublishingOptionsSchema = z.object(
  {
    publish: flag().optional(),
    linkType: nonBlank().optional().describe("Default: the IDR instance's defaultLinkType, else the credential type's own (untp:dpp, untp:dcc, untp:dfr, untp:dte, untp:dia), else gs1:sustainabilityInfo"),
    linkTitle: limited('name').optional().describe("Default: the data model's name"),
    identifierSchemeId: id().optional(),
    qualifierPath: limited('name').optional(),
    machineVerificationUrl: verificationUrl().optional(),
    humanVerificationUrl: verificationUrl().optional().describe('Default: RI_APP_URL + /verify'),
    humanLinkIncludesKey: flag().optional().describe(
      'Default false. true: the human link (verifyUrl, its QR code, the published IDR link) carries the decryption key in UNTP\'s QR-link form, so whoever holds the link or the product can read the credential without asking for a key',
    ),
    hreflang: z.array(limited('name').refine(isLanguageTag, 'must be a well-formed BCP 47 language tag'), { error: expected('an array of language tags') }).optional(),
    additionalRels: z.array(nonBlank(), { error: expected('an array of strings') }).optional(),
    public: flag().optional(),
    accessRole: z.array(z.enum(ACCESS_ROLES, { error: `must be one of ${ACCESS_ROLES.join(', ')}` }), { error: expected('an array') }).optional(),
  },
  { error: expected('an object') },
);

export const IssuanceRequestSchema = z.object({
  credentialPayload: jsonObject().describe('The unsigned credential (W3C VC 2.0 data model); validated against the data model'),
  credentialType: nonBlank().describe('A registered data model credentialType (a core type or an extension)'),
  version: nonBlank().describe('The data model version, e.g. 0.7.0'),
  statusPurposes: z
    .array(z.enum(STATUS_PURPOSES, { error: `must be one of ${STATUS_PURPOSES.join(', ')}` }), { error: expected('an array') })
    .min(1, 'must not be empty (omit it for the default purposes)')
    .optional(),
  tags: z.array(z.unknown(), { error: expected('an array of strings') }).optional(),
  storageOptions: StorageOptionsSchema.optional(),
  publishingOptions: PublishingOptionsSchema.optional(),
});

export type PublishingOptions = z.infer<typeof PublishingOptionsSchema>;

/** A request ready for the pipeline: defaults applied, settings-dependent rules checked. */
export interface IssuanceRequest {
  credentialPayload: Record<string, unknown>;
  credentialType: string;
  version: string;
  statusPurposes: StatusPurpose[];
  tags: string[];
  storage: { serviceInstanceId?: string; encrypt: boolean };
  publishing?: PublishingOptions;
}

/** The error code of a payload that carries its own status (the peer's, kept for its clients). */
const STATUS_NOT_ACCEPTED = 'CREDENTIAL_STATUS_NOT_ACCEPTED';

/**
 * Step 1 of issuance: the body's shape (400 `field: problem`, the first failure, paths prefixed by
 * `prefix` for batch items), the payload's size (413, `payload-limit.ts`), then the rules that depend on settings: statusPurposes unique and
 * single unless multiple purposes are enabled, tags by the one tag rule.
 */
export const parseIssuanceRequest = (body: unknown, settings: IssuanceSettings, prefix = ''): IssuanceRequest => {
  const parsed = IssuanceRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issuePath(issue.path);
    const field = prefix && path ? `${prefix}.${path}` : prefix || path || 'body';
    throw badRequest(`${field}: ${issue.message}`);
  }
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  const request = parsed.data;
  assertPayloadSize(request.credentialPayload, at('credentialPayload'));
  if ('credentialStatus' in request.credentialPayload) {
    throw badRequest(`${at('credentialPayload.credentialStatus')}: must not be sent; status entries are minted at issuance (statusPurposes)`, STATUS_NOT_ACCEPTED);
  }
  const purposes = request.statusPurposes ?? settings.defaultStatusPurposes;
  if (request.statusPurposes) {
    const first = new Map<string, number>();
    request.statusPurposes.forEach((p, i) => {
      if (first.has(p)) throw badRequest(`${at(`statusPurposes[${i}]`)}: must not repeat a purpose; duplicates statusPurposes[${first.get(p)}]`);
      first.set(p, i);
    });
    if (purposes.length > 1 && !settings.multipleStatusPurposes) {
      throw badRequest(`${at('statusPurposes')}: only one status purpose per credential is enabled (CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED)`);
    }
  }
  const tags = request.tags === undefined ? [] : assertValidTags(request.tags, settings, at('tags'));
  return {
    credentialPayload: request.credentialPayload,
    credentialType: request.credentialType,
    version: request.version,
    statusPurposes: [...purposes],
    tags,
    storage: { serviceInstanceId: request.storageOptions?.serviceInstanceId, encrypt: request.storageOptions?.encrypt !== false },
    publishing: request.publishingOptions,
  };
};
