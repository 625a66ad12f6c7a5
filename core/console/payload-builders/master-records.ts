/**
 * What the console's payload builders work from (issue 32): the tenant's master records as the repositories
 * load them, and the pieces of UNTP every credential type names them by. Identifiers become URIs through their
 * scheme's link template under the registrar's URL; a record without a primary identifier is named by a URN.
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

/** A conformity catalogue entry (scheme or profile) by its canonical URI, with what the catalogue records of it. */
export interface CatalogueEntry {
  id: string;
  name: string;
  version?: string | null;
  validFrom?: string | null;
  owner?: { id: string; name: string } | null;
}

/** A problem with the chosen entities or typed values, by the form field it belongs to. */
export class PayloadInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
  }
}

export const required = <T>(value: T | undefined, field: string, what: string): T => {
  if (value === undefined) throw new PayloadInputError(field, `choose ${what}`);
  return value;
};

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

export const idScheme = (record: MasterRecord, fallbackName: string, fallbackId: string) =>
  record.primaryIdentifier
    ? { type: ['IdentifierScheme'], id: record.primaryIdentifier.scheme.registrar.url, name: record.primaryIdentifier.scheme.name }
    : { type: ['IdentifierScheme'], id: fallbackId, name: fallbackName };

export const registered = (record: MasterRecord) => (record.primaryIdentifier ? { registeredId: record.primaryIdentifier.value } : {});

const described = (record: MasterRecord) => (record.description ? { description: record.description } : {});

export const party = (organisation: MasterRecord, issuerDid: string) => ({
  type: ['Party'],
  id: identifierUri(organisation, 'organisation'),
  name: organisation.name,
  ...described(organisation),
  ...registered(organisation),
  idScheme: idScheme(organisation, organisation.name, issuerDid),
});

export const facilityRef = (facility: MasterRecord) => ({
  type: ['Facility'],
  id: identifierUri(facility, 'facility'),
  name: facility.name,
  ...registered(facility),
});

export const productRef = (product: MasterRecord) => ({
  type: ['Product'],
  id: identifierUri(product, 'product'),
  name: product.name,
  ...registered(product),
});

export const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A typed value, trimmed; a required one that is empty names its field. */
export const typed = (values: Record<string, string | undefined>, field: string, what: string): string => {
  const value = values[field]?.trim();
  if (!value) throw new PayloadInputError(field, `enter ${what}`);
  return value;
};

/** A two-letter ISO 3166 country code, upper-cased. */
export const countryCode = (values: Record<string, string | undefined>, field: string): string => {
  const country = (values[field] ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw new PayloadInputError(field, 'must be a two-letter ISO 3166 country code');
  return country;
};

/** One of a field's allowed values. */
export const oneOf = <T extends string>(values: Record<string, string | undefined>, field: string, allowed: readonly T[]): T => {
  const value = values[field]?.trim() ?? '';
  if (!(allowed as readonly string[]).includes(value)) throw new PayloadInputError(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
};
