import { createIdentifier, deleteIdentifier, findIdentifier, listIdentifiers, updateIdentifierValue } from '../../../core/identifiers/identifier-repository.ts';
import { createRegistrar, deleteRegistrar, findRegistrarWithSchemes, listRegistrars, updateRegistrar } from '../../../core/registrars/registrar-repository.ts';
import { createScheme, deleteScheme, findScheme, listSchemes, updateScheme } from '../../../core/schemes/scheme-repository.ts';
import { CreateIdentifierBody, UpdateIdentifierBody } from '../../identifiers/schemas.ts';
import { CreateRegistrarBody, UpdateRegistrarBody } from '../../registrars/schemas.ts';
import { CreateSchemeBody, UpdateSchemeBody } from '../../schemes/schemas.ts';
import { byName, named, nameField, PICK, type MasterKind, type Row } from './master-kinds.ts';
import { registerMasterPages } from './master-pages.tsx';
import type { Hono } from 'hono';
import type { ConsoleEnv } from '../console-env.ts';

/**
 * Identifiers, their schemes and registrars. Apart from the other master data: a scheme's pattern is checked on
 * RE2 (re2js, loaded on first use), and these pages have an edge entry of their own
 * (functions/console-registry/edge.ts).
 */
export const IDENTIFIERS: MasterKind = {
  path: 'identifiers',
  singular: 'identifier',
  plural: 'Identifiers',
  fields: [
    { name: 'schemeId', label: 'Identifier scheme', kind: 'select', required: true, createOnly: true, choices: async (db, t) => (await listSchemes(db, t, {}, PICK)).rows.map((s) => ({ value: s.id, label: `${s.name} (${s.primaryKey})` })) },
    { name: 'value', label: 'Value', kind: 'text', required: true, hint: 'As the scheme writes it, e.g. a 14-digit GTIN.' },
  ],
  columns: [{ label: 'Scheme', value: (r) => String(r.schemeId ?? '') }],
  createSchema: CreateIdentifierBody,
  updateSchema: UpdateIdentifierBody,
  list: async (db, tenantId, _search, page) => listIdentifiers(db, tenantId, {}, page),
  find: (db, tenantId, id) => findIdentifier(db, tenantId, id) as Promise<Row | undefined>,
  create: (db, tenantId, input) => createIdentifier(db, tenantId, input as { schemeId: string; value: string }),
  update: (db, tenantId, id, patch) => updateIdentifierValue(db, tenantId, id, String(patch.value ?? '')),
  remove: (db, tenantId, id) => deleteIdentifier(db, tenantId, id),
  title: (row) => String(row.value ?? row.id),
  titleLabel: 'Value',
};

export const REGISTRARS: MasterKind = {
  path: 'registrars',
  singular: 'registrar',
  plural: 'Registrars',
  fields: [
    nameField,
    { name: 'namespace', label: 'Namespace', kind: 'text', required: true, hint: 'Its short name at the resolver, e.g. gs1.' },
    { name: 'url', label: 'Web address', kind: 'text', required: true, hint: 'Identifiers of its schemes are links under it, e.g. https://id.gs1.org.' },
  ],
  columns: [{ label: 'Web address', value: (r) => String(r.url ?? '') }],
  createSchema: CreateRegistrarBody,
  updateSchema: UpdateRegistrarBody,
  list: (db, tenantId, _search, page) => listRegistrars(db, tenantId, page),
  find: (db, tenantId, id) => findRegistrarWithSchemes(db, tenantId, id) as Promise<Row | undefined>,
  create: async (db, tenantId, input) => (await createRegistrar(db, tenantId, input as never)).id,
  update: (db, tenantId, id, patch) => updateRegistrar(db, tenantId, id, patch),
  remove: (db, tenantId, id) => deleteRegistrar(db, tenantId, id),
  title: byName,
  titleLabel: 'Name',
};

export const SCHEMES: MasterKind = {
  path: 'schemes',
  singular: 'identifier scheme',
  plural: 'Identifier schemes',
  fields: [
    { name: 'registrarId', label: 'Registrar', kind: 'select', required: true, createOnly: true, choices: (db, t) => named(listRegistrars(db, t, PICK)) },
    nameField,
    { name: 'primaryKey', label: 'Primary key', kind: 'text', required: true, hint: 'Its application identifier, e.g. 01 for a GTIN.' },
    { name: 'validationPattern', label: 'Validation pattern', kind: 'text', required: true, hint: 'A regular expression every value must match, e.g. ^\\d{14}$.' },
    { name: 'linkTemplate', label: 'Link template', kind: 'text', required: true, hint: 'How a value becomes a link under the registrar, e.g. /{primaryKey}/{value}.' },
  ],
  columns: [{ label: 'Primary key', value: (r) => String(r.primaryKey ?? '') }],
  createSchema: CreateSchemeBody,
  updateSchema: UpdateSchemeBody,
  list: (db, tenantId, _search, page) => listSchemes(db, tenantId, {}, page),
  find: (db, tenantId, id) => findScheme(db, tenantId, id) as Promise<Row | undefined>,
  create: (db, tenantId, input) => createScheme(db, tenantId, input as never),
  update: (db, tenantId, id, patch) => updateScheme(db, tenantId, id, patch),
  remove: (db, tenantId, id) => deleteScheme(db, tenantId, id),
  title: byName,
  titleLabel: 'Name',
};

/** Their pages (no search: the API lists have none). */
export const registerIdentifierPages = (app: Hono<ConsoleEnv>) => {
  for (const kind of [IDENTIFIERS, REGISTRARS, SCHEMES]) registerMasterPages(app, kind, { searchable: false });
};
