import { findDataModel } from '../../../core/data-models/data-model-repository.ts';
import { formConfigFor } from '../../../core/data-models/form-config.ts';
import { findVisibleDid } from '../../../core/dids/did-repository.ts';
import { listDids } from '../../../core/dids/did-repository.ts';
import { notFound, notFoundAt } from '../../../core/errors.ts';
import { findFacility, listFacilities } from '../../../core/facilities/facility-repository.ts';
import { findOrganisation, listOrganisations } from '../../../core/organisations/organisation-repository.ts';
import { findProduct, listProducts } from '../../../core/products/product-repository.ts';
import { renderMethodOfTemplate } from '../../../core/render-templates/render-method.ts';
import { findTemplate, listTemplates } from '../../../core/render-templates/template-repository.ts';
import { canBuildPayload, payloadFromMasterData, PayloadInputError } from '../../../core/console/payload-from-master-data.ts';
import { domainDeps } from '../../../core/deps.ts';
import type { Services } from '../../platform/env.ts';
import { optional } from '../form-fields.ts';

/** How many entities a picker offers (the newest first); search narrows the master-data lists themselves. */
export const PICKER_LIMIT = 100;
const PAGE = { limit: PICKER_LIMIT, offset: 0 };

/** The entity pickers the console knows how to fill, by form-config entity. */
const PICKER_LISTS = {
  Organisation: (s: Services, tenantId: string) => listOrganisations(s.db, tenantId, {}, PAGE),
  Facility: (s: Services, tenantId: string) => listFacilities(s.db, tenantId, {}, PAGE),
  Product: (s: Services, tenantId: string) => listProducts(s.db, tenantId, {}, PAGE),
} as const;
type PickerEntity = keyof typeof PICKER_LISTS;
const isPickerEntity = (entity: string): entity is PickerEntity => entity in PICKER_LISTS;

/** Everything the issue form offers for one data model: its pickers (by form-config), the DIDs and templates. */
export const loadIssueForm = async (services: Services, tenantId: string, dataModelId: string) => {
  const model = await findDataModel(services.db, tenantId, dataModelId);
  if (!model) throw notFound('Data model');
  const sections = formConfigFor(model.credentialType).sections.filter((s) => isPickerEntity(s.entity));
  const [pickers, dids, templates] = await Promise.all([
    Promise.all(sections.map(async (section) => ({ section, rows: (await PICKER_LISTS[section.entity as PickerEntity](services, tenantId)).rows }))),
    listDids(services.db, tenantId, {}, PAGE),
    listTemplates(domainDeps(services), tenantId, { dataModelId }, PAGE),
  ]);
  return { model, buildable: canBuildPayload(model.credentialType, model.version), pickers, dids: dids.rows, templates: templates.rows };
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
  const [organisation, facility, product, did, template] = await Promise.all([
    load('organisation', 'organisation', (id) => findOrganisation(services.db, tenantId, id)),
    load('facility', 'facility', (id) => findFacility(services.db, tenantId, id)),
    load('product', 'product', (id) => findProduct(services.db, tenantId, id)),
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
    countryOfProduction: fields.countryOfProduction,
    renderMethod: renderMethod ? { ...renderMethod } : undefined,
  });
  return { model, payload, template };
};
