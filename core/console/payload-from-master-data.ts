/**
 * The unsigned UNTP credential the console issues, built from the tenant's master data (issue 32): the
 * person picks entities; nothing here is typed as JSON. Identifiers become URIs through their scheme's link
 * template under the registrar's URL; a record without a primary identifier is named by a URN of its id.
 */

/** A master record as the repositories load it: its primary identifier with scheme and registrar. */
export interface MasterRecord {
  id: string;
  name: string;
  description?: string | null;
  location?: unknown;
  primaryIdentifier?: {
    value: string;
    scheme: { name: string; primaryKey: string; linkTemplate: string; registrar: { name: string; url: string } };
  } | null;
}

export interface ProductRecord extends MasterRecord {
  level: 'MODEL' | 'BATCH' | 'ITEM';
}

export interface PayloadInput {
  credentialType: string;
  version: string;
  /** The data model's JSON-LD context URL (the UNTP vocabulary of its version). */
  contextUrl: string;
  issuerDid: string;
  organisation: MasterRecord;
  facility?: MasterRecord;
  product?: ProductRecord;
  /** ISO 3166-1 alpha-2 code of the country of production (DPP). */
  countryOfProduction?: string;
  /** The render method entry to attach (render-templates' render-method shape), if any. */
  renderMethod?: Record<string, unknown>;
  now?: Date;
  /** Months the credential stays valid (default 12). */
  validMonths?: number;
}

/** The types and versions the console can build so far: UNTP 0.7.0's product passport. */
export const BUILDABLE_MODELS: Record<string, readonly string[]> = {
  DigitalProductPassport: ['0.7.0'],
};

export const canBuildPayload = (credentialType: string, version: string) => BUILDABLE_MODELS[credentialType]?.includes(version) ?? false;

const W3C_CREDENTIALS_V2 = 'https://www.w3.org/ns/credentials/v2';

const expand = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? encodeURIComponent(values[key]!) : whole));

/** The identifier as a URI (`https://registrar/01/09520123456788` for a GS1 GTIN), or a URN of the record. */
export const identifierUri = (record: MasterRecord, kind: string): string => {
  const identifier = record.primaryIdentifier;
  if (!identifier) return `urn:css:${kind}:${record.id}`;
  const { scheme } = identifier;
  const base = scheme.registrar.url.replace(/\/+$/, '');
  return `${base}${expand(scheme.linkTemplate, { primaryKey: scheme.primaryKey, value: identifier.value })}`;
};

const idScheme = (record: MasterRecord, fallbackName: string, fallbackId: string) =>
  record.primaryIdentifier
    ? { type: ['IdentifierScheme'], id: record.primaryIdentifier.scheme.registrar.url, name: record.primaryIdentifier.scheme.name }
    : { type: ['IdentifierScheme'], id: fallbackId, name: fallbackName };

const registered = (record: MasterRecord) => (record.primaryIdentifier ? { registeredId: record.primaryIdentifier.value } : {});

const party = (organisation: MasterRecord, issuerDid: string) => ({
  type: ['Party'],
  id: identifierUri(organisation, 'organisation'),
  name: organisation.name,
  ...(organisation.description ? { description: organisation.description } : {}),
  ...registered(organisation),
  idScheme: idScheme(organisation, organisation.name, issuerDid),
});

const facilityRef = (facility: MasterRecord) => ({
  type: ['Facility'],
  id: identifierUri(facility, 'facility'),
  name: facility.name,
  ...registered(facility),
});

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A problem with the chosen entities, by the form field it belongs to. */
export class PayloadInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
  }
}

const required = <T>(value: T | undefined, field: string, what: string): T => {
  if (value === undefined) throw new PayloadInputError(field, `choose ${what}`);
  return value;
};

/** The product passport's subject: the product, where it was made, who made it. */
const productSubject = (input: PayloadInput) => {
  const product = required(input.product, 'product', 'a product');
  const facility = required(input.facility, 'facility', 'the facility that produced it');
  const country = (input.countryOfProduction ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw new PayloadInputError('countryOfProduction', 'must be a two-letter ISO 3166 country code');
  return {
    type: ['Product'],
    id: identifierUri(product, 'product'),
    name: product.name,
    ...(product.description ? { description: product.description } : {}),
    idScheme: idScheme(product, input.organisation.name, input.issuerDid),
    idGranularity: product.level.toLowerCase(),
    productCategory: [],
    producedAtFacility: facilityRef(facility),
    countryOfProduction: { countryCode: country },
    relatedParty: [{ role: 'manufacturer', party: party(input.organisation, input.issuerDid) }],
  };
};

/** The unsigned credential: contexts, types, issuer (the chosen DID, named as the organisation), dates, subject, render method. */
export const payloadFromMasterData = (input: PayloadInput): Record<string, unknown> => {
  if (!canBuildPayload(input.credentialType, input.version)) {
    throw new PayloadInputError('dataModel', 'the console builds Digital Product Passports (UNTP 0.7.0) so far; issue other models through the API');
  }
  const now = input.now ?? new Date();
  const until = new Date(now);
  until.setUTCMonth(until.getUTCMonth() + (input.validMonths ?? 12));
  const subject = productSubject(input);
  return {
    '@context': [W3C_CREDENTIALS_V2, input.contextUrl],
    type: [input.credentialType, 'VerifiableCredential'],
    id: `urn:uuid:${crypto.randomUUID()}`,
    issuer: { type: ['CredentialIssuer'], id: input.issuerDid, name: input.organisation.name },
    validFrom: isoSeconds(now),
    validUntil: isoSeconds(until),
    name: `Digital Product Passport — ${subject.name}`,
    ...(input.renderMethod ? { renderMethod: [input.renderMethod] } : {}),
    credentialSubject: subject,
  };
};
