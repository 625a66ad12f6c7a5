import { isV06, UNTP_VERSIONS, type BuilderInput, type PayloadBuilder } from './builder.ts';
import { countryCode, identifierUri, idScheme, party, registered, required, typed } from './master-records.ts';

/** The Digital Facility Record: the facility, who operates it, where it is. */
const build = (input: BuilderInput) => {
  const facility = required(input.facility, 'facility', 'a facility');
  const country = countryCode(input.values, 'countryOfOperation');
  const address = {
    streetAddress: typed(input.values, 'streetAddress', 'the street address'),
    postalCode: typed(input.values, 'postalCode', 'the postal code'),
    addressLocality: typed(input.values, 'addressLocality', 'the town or city'),
    addressRegion: typed(input.values, 'addressRegion', 'the region or state'),
  };
  const name = `Digital Facility Record — ${facility.name}`;
  const common = {
    id: identifierUri(facility, 'facility'),
    name: facility.name,
    ...registered(facility),
    idScheme: idScheme(facility, input.organisation.name, input.issuerDid),
    ...(facility.description ? { description: facility.description } : {}),
  };
  if (isV06(input.version)) {
    return {
      name,
      subject: {
        type: ['FacilityRecord'],
        facility: {
          type: ['Facility'],
          ...common,
          countryOfOperation: country,
          operatedByParty: { id: identifierUri(input.organisation, 'organisation'), name: input.organisation.name },
          address: { ...address, addressCountry: country },
        },
      },
    };
  }
  return {
    name,
    subject: {
      type: ['Facility'],
      ...common,
      countryOfOperation: { countryCode: country },
      processCategory: [],
      relatedParty: [{ role: 'operator', party: party(input.organisation, input.issuerDid) }],
      locationInformation: {},
      address: { ...address, addressCountry: { countryCode: country } },
    },
  };
};

export const facilityRecord: PayloadBuilder = {
  credentialType: 'DigitalFacilityRecord',
  versions: UNTP_VERSIONS,
  pickers: ['organisation', 'facility'],
  fields: () => [
    { key: 'countryOfOperation', label: 'Country of operation', hint: 'Two-letter ISO 3166 code, e.g. AU', maxlength: 2 },
    { key: 'streetAddress', label: 'Street address' },
    { key: 'postalCode', label: 'Postal code' },
    { key: 'addressLocality', label: 'Town or city' },
    { key: 'addressRegion', label: 'Region or state' },
  ],
  build,
};
