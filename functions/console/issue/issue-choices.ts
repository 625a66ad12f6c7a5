import { chosenProfile, chosenScheme } from '../../../core/console/conformity-choice.ts';
import { builderFor, payloadFromMasterData, PayloadInputError, type PayloadBuilder, type PickerKey, type TypedField } from '../../../core/console/payload-from-master-data.ts';
import { listProfiles, listSchemes } from '../../../core/conformity/catalogue-queries.ts';
import { findDataModel } from '../../../core/data-models/data-model-repository.ts';
import { formConfigFor, type FormSection } from '../../../core/data-models/form-config.ts';
import { findVisibleDid } from '../../../core/dids/did-repository.ts';
import { listDids } from '../../../core/dids/did-repository.ts';
import { notFound, notFoundAt } from '../../../core/errors.ts';
import { findFacility, listFacilities } from '../../../core/facilities/facility-repository.ts';
import { findOrganisation, listOrganisations } from '../../../core/organisations/organisation-repository.ts';
import { findProduct, listProducts } from '../../../core/products/product-repository.ts';
import { renderMethodOfTemplate } from '../../../core/render-templates/render-method.ts';
import { findTemplate, listTemplates } from '../../../core/render-templates/template-repository.ts';
import { domainDeps } from '../../../core/deps.ts';
import type { Services } from '../../platform/env.ts';
import { optional } from '../form-fields.ts';

/** How many entities a picker offers (the newest first); search narrows the master-data lists themselves. */
export const PICKER_LIMIT = 100;
const PAGE = { limit: PICKER_LIMIT, offset: 0 };

export interface PickerRow {
  id: string;
  name: string;
  level?: string;
}

/** The entity pickers the console fills, by form-config key; the profile list follows the chosen scheme. */
const PICKER_LISTS: Record<PickerKey, (s: Services, tenantId: string, values: Record<string, string>) => Promise<PickerRow[]>> = {
  organisation: async (s, tenantId) => (await listOrganisations(s.db, tenantId, {}, PAGE)).rows,
  facility: async (s, tenantId) => (await listFacilities(s.db, tenantId, {}, PAGE)).rows,
  product: async (s, tenantId) => (await listProducts(s.db, tenantId, {}, PAGE)).rows,
  conformityScheme: async (s, tenantId) => (await listSchemes(s.db, tenantId, PAGE)).rows,
  conformityProfile: async (s, tenantId, values) => {
    const scheme = values.conformityScheme?.trim();
    return scheme ? (await listProfiles(s.db, tenantId, scheme, PAGE)).rows : [];
  },
};

/**
 * The pickers of a type, in form-config's order, limited to those its builder uses, then any its builder
 * needs that form-config leaves out (a traceability event's facility), required as the builder requires them.
 */
const sectionsFor = (credentialType: string, { pickers, requires = [] }: PayloadBuilder): FormSection[] => {
  const described = formConfigFor(credentialType)
    .sections.filter((s) => pickers.includes(s.key as PickerKey))
    .map((s) => (requires.includes(s.key as PickerKey) ? { ...s, required: true } : s));
  const added = pickers
    .filter((key) => !described.some((s) => s.key === key))
    .map((key): FormSection => ({ key, label: key[0]!.toUpperCase() + key.slice(1), type: 'entity-picker', entity: key[0]!.toUpperCase() + key.slice(1), source: '', required: true }));
  return [...described, ...added];
};

export interface IssuePicker {
  section: FormSection;
  rows: PickerRow[];
}

/** Everything the issue form offers for one data model: its pickers, typed fields, the DIDs and templates. */
export const loadIssueForm = async (services: Services, tenantId: string, dataModelId: string, values: Record<string, string> = {}) => {
  const model = await findDataModel(services.db, tenantId, dataModelId);
  if (!model) throw notFound('Data model');
  const builder = builderFor(model.credentialType, model.version);
  const sections = builder ? sectionsFor(model.credentialType, builder) : [];
  const [pickers, dids, templates] = await Promise.all([
    Promise.all(sections.map(async (section): Promise<IssuePicker> => ({ section, rows: await PICKER_LISTS[section.key as PickerKey](services, tenantId, values) }))),
    listDids(services.db, tenantId, {}, PAGE),
    listTemplates(domainDeps(services), tenantId, { dataModelId }, PAGE),
  ]);
  const fields: readonly TypedField[] = builder?.fields(model.version) ?? [];
  return { model, buildable: builder !== undefined, pickers, fields, dids: dids.rows, templates: templates.rows };
};

/** The keys a preview carries on to the issue step for a model: pickers, typed fields and the common choices. */
export const choiceFieldsFor = (credentialType: string, version: string): string[] => {
  const builder = builderFor(credentialType, version);
  return ['dataModelId', ...(builder?.pickers ?? []), ...(builder?.fields(version).map((f) => f.key) ?? []), 'issuerDid', 'renderTemplateId', 'encrypt'];
};

/**
 * The chosen entities, DID and template, each loaded under the tenant (another tenant's id is the 404 of a
 * missing one, naming the field), and the payload built from them.
 */
export const buildFromChoices = async (services: Services, tenantId: string, fields: Record<string, string>) => {
  const model = await findDataModel(services.db, tenantId, fields.dataModelId ?? '');
  if (!model) throw notFoundAt('dataModelId', 'data model');
  const load = async <T>(field: string, what: string, find: (id: string) => Promise<T | undefined>) => {
    const id = optional(fields, field);
    if (id === undefined) return undefined;
    const row = await find(id);
    if (!row) throw notFoundAt(field, what);
    return row;
  };
  const schemeId = optional(fields, 'conformityScheme');
  if (!schemeId && optional(fields, 'conformityProfile')) throw new PayloadInputError('conformityScheme', 'choose the scheme of the chosen profile');
  const [organisation, facility, product, conformityScheme, conformityProfile, did, template] = await Promise.all([
    load('organisation', 'organisation', (id) => findOrganisation(services.db, tenantId, id)),
    load('facility', 'facility', (id) => findFacility(services.db, tenantId, id)),
    load('product', 'product', (id) => findProduct(services.db, tenantId, id)),
    load('conformityScheme', 'conformity scheme', (id) => chosenScheme(services.db, tenantId, id)),
    load('conformityProfile', 'conformity profile of the chosen scheme', (id) => (schemeId ? chosenProfile(services.db, tenantId, schemeId, id) : Promise.resolve(undefined))),
    load('issuerDid', 'DID', (id) => findVisibleDid(services.db, tenantId, id)),
    load('renderTemplateId', 'render template', async (id) => {
      const row = await findTemplate(domainDeps(services), tenantId, id);
      return row?.dataModelId === model.id ? row : undefined;
    }),
  ]);
  if (!organisation) throw new PayloadInputError('organisation', 'choose the organisation that issues');
  if (!did) throw new PayloadInputError('issuerDid', 'choose the DID that signs');
  // The entry in the shape of the data model's version, as GET /render-templates/{id}/render-method answers it.
  const renderMethod = template ? await renderMethodOfTemplate(domainDeps(services), tenantId, template.id) : undefined;
  const payload = payloadFromMasterData({
    credentialType: model.credentialType,
    version: model.version,
    contextUrl: model.contextUrl,
    issuerDid: did.did,
    organisation,
    facility,
    product,
    conformityScheme,
    conformityProfile,
    values: fields,
    renderMethod: renderMethod ? { ...renderMethod } : undefined,
  });
  return { model, payload, template };
};
