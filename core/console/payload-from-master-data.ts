/**
 * The unsigned UNTP credential the console issues, built from the tenant's master data (issue 32): the
 * person picks entities and types a few values; nothing is typed as JSON. One builder per credential type
 * (`payload-builders/`); this file picks it and wraps its subject in the credential.
 */
import { untpContext, type ChosenRecords, type PayloadBuilder } from './payload-builders/builder.ts';
import { conformityCredential } from './payload-builders/conformity-credential.ts';
import { facilityRecord } from './payload-builders/facility-record.ts';
import { identityAnchor } from './payload-builders/identity-anchor.ts';
import { isoSeconds, PayloadInputError } from './payload-builders/master-records.ts';
import { productPassport } from './payload-builders/product-passport.ts';
import { traceabilityEvent } from './payload-builders/traceability-event.ts';

export { identifierUri, PayloadInputError, type CatalogueEntry, type MasterRecord, type ProductRecord } from './payload-builders/master-records.ts';
export type { PayloadBuilder, PickerKey, TypedField } from './payload-builders/builder.ts';

const BUILDERS: readonly PayloadBuilder[] = [productPassport, conformityCredential, facilityRecord, traceabilityEvent, identityAnchor];

/** The builder of a credential type and version, if the console builds it. */
export const builderFor = (credentialType: string, version: string): PayloadBuilder | undefined =>
  BUILDERS.find((b) => b.credentialType === credentialType && b.versions.includes(version));

export const canBuildPayload = (credentialType: string, version: string) => builderFor(credentialType, version) !== undefined;

export interface PayloadInput extends ChosenRecords {
  credentialType: string;
  version: string;
  /** The data model's JSON-LD context URL (the UNTP vocabulary of its version). */
  contextUrl: string;
  /** The typed values the type's builder asks for (its `fields`), by key. */
  values?: Record<string, string | undefined>;
  /** ISO 3166-1 alpha-2 code of the country of production (DPP); the same as `values.countryOfProduction`. */
  countryOfProduction?: string;
  /** The render method entry to attach (render-templates' render-method shape), if any. */
  renderMethod?: Record<string, unknown>;
  now?: Date;
  /** Months the credential stays valid (default 12). */
  validMonths?: number;
}

const W3C_CREDENTIALS_V2 = 'https://www.w3.org/ns/credentials/v2';

/** The unsigned credential: contexts, types, issuer (the chosen DID, named as the organisation), dates, subject, render method. */
export const payloadFromMasterData = (input: PayloadInput): Record<string, unknown> => {
  const builder = builderFor(input.credentialType, input.version);
  if (!builder) throw new PayloadInputError('dataModel', `the console does not build ${input.credentialType} ${input.version}; issue it through the API`);
  const now = input.now ?? new Date();
  const until = new Date(now);
  until.setUTCMonth(until.getUTCMonth() + (input.validMonths ?? 12));
  const values = { countryOfProduction: input.countryOfProduction, ...input.values };
  const { name, subject } = builder.build({ ...input, values, now });
  return {
    '@context': [W3C_CREDENTIALS_V2, untpContext(input.contextUrl, input.version)],
    type: [input.credentialType, 'VerifiableCredential'],
    id: `urn:uuid:${crypto.randomUUID()}`,
    issuer: { type: ['CredentialIssuer'], id: input.issuerDid, name: input.organisation.name },
    validFrom: isoSeconds(now),
    validUntil: isoSeconds(until),
    name,
    ...(input.renderMethod ? { renderMethod: [input.renderMethod] } : {}),
    credentialSubject: subject,
  };
};
