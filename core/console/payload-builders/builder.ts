import type { CatalogueEntry, MasterRecord, ProductRecord } from './master-records.ts';

/** A value the person types or chooses beside the entity pickers (a country, a date, an assessment level). */
export interface TypedField {
  key: string;
  label: string;
  hint?: string;
  /** Allowed values: the field is a select. */
  choices?: readonly string[];
  type?: 'text' | 'date';
  maxlength?: number;
}

/** Entity pickers by form-config key. */
export type PickerKey = 'organisation' | 'facility' | 'product' | 'conformityScheme' | 'conformityProfile';

/** The signing DID and the records a person chose through the pickers. */
export interface ChosenRecords {
  issuerDid: string;
  organisation: MasterRecord;
  facility?: MasterRecord;
  product?: ProductRecord;
  conformityScheme?: CatalogueEntry;
  conformityProfile?: CatalogueEntry;
}

/** The chosen records and typed values one credential is built from. */
export interface BuilderInput extends ChosenRecords {
  version: string;
  values: Record<string, string | undefined>;
  now: Date;
}

/**
 * One credential type's payload from master data: the versions it builds, the pickers it uses (form-config's
 * for the type, plus any the type's schema needs that form-config leaves out), the values it asks for, and the
 * credential's name and subject in the shape of the chosen version.
 */
export interface PayloadBuilder {
  credentialType: string;
  versions: readonly string[];
  pickers: readonly PickerKey[];
  /** Pickers form-config marks optional that this type needs (a conformity credential's scheme). */
  requires?: readonly PickerKey[];
  fields: (version: string) => readonly TypedField[];
  build: (input: BuilderInput) => { name: string; subject: unknown };
}

export const UNTP_VERSIONS = ['0.6.0', '0.6.1', '0.7.0'] as const;
export const isV06 = (version: string) => version.startsWith('0.6.');

/**
 * The UNTP context a credential names: 0.6.x schemas require the vocabulary URL itself
 * (`…/untp/dpp/0.6.1/`), which serves the same context as the data model's `…/context/` address.
 */
export const untpContext = (contextUrl: string, version: string) => (isV06(version) ? contextUrl.replace(/context\/$/, '') : contextUrl);
