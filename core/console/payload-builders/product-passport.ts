import { isV06, UNTP_VERSIONS, type BuilderInput, type PayloadBuilder } from './builder.ts';
import { countryCode, facilityRef, identifierUri, idScheme, party, registered, required } from './master-records.ts';

/** The Digital Product Passport: the product, the facility that made it, who made it, where. */
const build = (input: BuilderInput) => {
  const product = required(input.product, 'product', 'a product');
  const facility = required(input.facility, 'facility', 'the facility that produced it');
  const country = countryCode(input.values, 'countryOfProduction');
  const name = `Digital Product Passport — ${product.name}`;
  const description = product.description ? { description: product.description } : {};
  if (isV06(input.version)) {
    return {
      name,
      subject: {
        type: ['ProductPassport'],
        id: `urn:uuid:${crypto.randomUUID()}`,
        product: {
          type: ['Product'],
          id: identifierUri(product, 'product'),
          name: product.name,
          ...registered(product),
          idScheme: idScheme(product, input.organisation.name, input.issuerDid),
          ...description,
          producedByParty: { id: identifierUri(input.organisation, 'organisation'), name: input.organisation.name },
          producedAtFacility: { id: identifierUri(facility, 'facility'), name: facility.name },
          countryOfProduction: country,
        },
        granularityLevel: product.level.toLowerCase(),
      },
    };
  }
  return {
    name,
    subject: {
      type: ['Product'],
      id: identifierUri(product, 'product'),
      name: product.name,
      ...description,
      idScheme: idScheme(product, input.organisation.name, input.issuerDid),
      idGranularity: product.level.toLowerCase(),
      productCategory: [],
      producedAtFacility: facilityRef(facility),
      countryOfProduction: { countryCode: country },
      relatedParty: [{ role: 'manufacturer', party: party(input.organisation, input.issuerDid) }],
    },
  };
};

export const productPassport: PayloadBuilder = {
  credentialType: 'DigitalProductPassport',
  versions: UNTP_VERSIONS,
  pickers: ['organisation', 'facility', 'product'],
  fields: () => [{ key: 'countryOfProduction', label: 'Country of production', hint: 'Two-letter ISO 3166 code, e.g. AU', maxlength: 2 }],
  build,
};
