import type { ZodType } from 'zod';
import { createFacilities, deleteFacility, findFacility, listFacilities, updateFacility } from '../../../core/facilities/facility-repository.ts';
import { createOrganisations, deleteOrganisation, findOrganisation, listOrganisations, updateOrganisation } from '../../../core/organisations/organisation-repository.ts';
import { createProducts, deleteProduct, findProduct, listProducts, updateProduct } from '../../../core/products/product-repository.ts';
import { PRODUCT_LEVELS } from '../../../db/schema/index.ts';
import { CreateFacilityItem, UpdateFacilityBody } from '../../facilities/schemas.ts';
import { CreateOrganisationItem, UpdateOrganisationBody } from '../../organisations/schemas.ts';
import { CreateProductItem, UpdateProductBody } from '../../products/schemas.ts';
import type { Services } from '../../platform/env.ts';
import type { Choice } from '../form-controls.tsx';
import { identifierOptions } from '../../../core/identifiers/identifier-options.ts';

export type Db = Services['db'];
export type Row = { id: string; name?: string; value?: string; [key: string]: unknown };
export const PICK = { limit: 200, offset: 0 };

/** One input of a record's form; `clearable` fields are sent as null when emptied on edit (the API's "null clears"). */
export interface FieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'select';
  required?: boolean;
  hint?: string;
  clearable?: boolean;
  /** Shown on create only (the API treats it as immutable). */
  createOnly?: boolean;
  choices?: (db: Db, tenantId: string) => Promise<Choice[]>;
}

/** A kind of master record as the console edits it: the API's schemas and core's functions, nothing of its own. */
export interface MasterKind {
  path: string;
  singular: string;
  plural: string;
  fields: FieldSpec[];
  columns: { label: string; value: (row: Row) => string }[];
  createSchema: ZodType;
  updateSchema: ZodType;
  list(db: Db, tenantId: string, search: string | undefined, page: { limit: number; offset: number }): Promise<{ rows: Row[]; total: number }>;
  find(db: Db, tenantId: string, id: string): Promise<Row | undefined>;
  create(db: Db, tenantId: string, input: Record<string, unknown>): Promise<string>;
  update(db: Db, tenantId: string, id: string, patch: Record<string, unknown>): Promise<unknown>;
  remove(db: Db, tenantId: string, id: string): Promise<unknown>;
  title(row: Row): string;
  /** The list's first column: what `title` shows. */
  titleLabel: string;
}

export const named = async (list: Promise<{ rows: { id: string; name: string }[] }>): Promise<Choice[]> => (await list).rows.map((r) => ({ value: r.id, label: r.name }));

const identifierChoices = async (db: Db, tenantId: string): Promise<Choice[]> =>
  (await identifierOptions(db, tenantId, PICK.limit)).map((r) => ({ value: r.id, label: r.value }));

const primaryIdentifier: FieldSpec = {
  name: 'primaryIdentifierId',
  label: 'Primary identifier',
  kind: 'select',
  clearable: true,
  hint: 'A GTIN, GLN or registry number made on the Identifiers page.',
  choices: identifierChoices,
};
const description = (clearable: boolean): FieldSpec => ({ name: 'description', label: 'Description', kind: 'textarea', clearable });
export const nameField: FieldSpec = { name: 'name', label: 'Name', kind: 'text', required: true };

const first = <T>(ids: Promise<string[]>) => ids.then((all) => all[0]!) as unknown as Promise<T>;
export const byName = (row: Row) => String(row.name ?? row.id);

export const ORGANISATIONS: MasterKind = {
  path: 'organisations',
  singular: 'organisation',
  plural: 'Organisations',
  fields: [nameField, description(true), primaryIdentifier],
  columns: [{ label: 'Description', value: (r) => String(r.description ?? '') }],
  createSchema: CreateOrganisationItem,
  updateSchema: UpdateOrganisationBody,
  list: (db, tenantId, search, page) => listOrganisations(db, tenantId, { search }, page),
  find: (db, tenantId, id) => findOrganisation(db, tenantId, id),
  create: (db, tenantId, input) => first(createOrganisations(db, tenantId, [input as never])),
  update: (db, tenantId, id, patch) => updateOrganisation(db, tenantId, id, patch),
  remove: (db, tenantId, id) => deleteOrganisation(db, tenantId, id),
  title: byName,
  titleLabel: 'Name',
};

export const FACILITIES: MasterKind = {
  path: 'facilities',
  singular: 'facility',
  plural: 'Facilities',
  fields: [
    nameField,
    description(true),
    { name: 'operatingOrganisationId', label: 'Operating organisation', kind: 'select', clearable: true, choices: (db, t) => named(listOrganisations(db, t, {}, PICK)) },
    primaryIdentifier,
  ],
  columns: [{ label: 'Description', value: (r) => String(r.description ?? '') }],
  createSchema: CreateFacilityItem,
  updateSchema: UpdateFacilityBody,
  list: (db, tenantId, search, page) => listFacilities(db, tenantId, { search }, page),
  find: (db, tenantId, id) => findFacility(db, tenantId, id),
  create: (db, tenantId, input) => first(createFacilities(db, tenantId, [input as never])),
  update: (db, tenantId, id, patch) => updateFacility(db, tenantId, id, patch),
  remove: (db, tenantId, id) => deleteFacility(db, tenantId, id),
  title: byName,
  titleLabel: 'Name',
};

export const PRODUCTS: MasterKind = {
  path: 'products',
  singular: 'product',
  plural: 'Products',
  fields: [
    nameField,
    { name: 'level', label: 'Level', kind: 'select', required: true, createOnly: true, hint: 'A model, a batch of a model, or an item of a batch.', choices: async () => PRODUCT_LEVELS.map((l) => ({ value: l, label: l.toLowerCase() })) },
    description(false),
    { name: 'parentId', label: 'Parent product', kind: 'select', clearable: true, hint: 'A batch belongs to a model, an item to a batch.', choices: (db, t) => named(listProducts(db, t, {}, PICK)) },
    { name: 'producedByOrganisationId', label: 'Produced by', kind: 'select', clearable: true, choices: (db, t) => named(listOrganisations(db, t, {}, PICK)) },
    { name: 'manufacturingFacilityId', label: 'Manufacturing facility', kind: 'select', clearable: true, choices: (db, t) => named(listFacilities(db, t, {}, PICK)) },
    primaryIdentifier,
  ],
  columns: [{ label: 'Level', value: (r) => String(r.level ?? '').toLowerCase() }],
  createSchema: CreateProductItem,
  updateSchema: UpdateProductBody,
  list: (db, tenantId, search, page) => listProducts(db, tenantId, { search }, page),
  find: (db, tenantId, id) => findProduct(db, tenantId, id),
  create: (db, tenantId, input) => first(createProducts(db, tenantId, [input as never])),
  update: (db, tenantId, id, patch) => updateProduct(db, tenantId, id, patch),
  remove: (db, tenantId, id) => deleteProduct(db, tenantId, id),
  title: byName,
  titleLabel: 'Name',
};
