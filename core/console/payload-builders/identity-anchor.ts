import { isV06, UNTP_VERSIONS, type BuilderInput, type PayloadBuilder } from './builder.ts';
import { idScheme, identifierUri, PayloadInputError, typed } from './master-records.ts';

/**
 * The Digital Identity Anchor: a register's statement that the organisation holds its registered identifier
 * (its primary identifier in master data, which it must have) since the registration date.
 */
const build = (input: BuilderInput) => {
  const organisation = input.organisation;
  if (!organisation.primaryIdentifier) throw new PayloadInputError('organisation', 'needs a primary identifier: the anchor states its registration');
  const common = {
    id: identifierUri(organisation, 'organisation'),
    registeredId: organisation.primaryIdentifier.value,
    idScheme: idScheme(organisation, organisation.name, input.issuerDid),
  };
  const name = `Digital Identity Anchor — ${organisation.name}`;
  if (isV06(input.version)) {
    return { name, subject: { type: ['RegisteredIdentity'], ...common, name: organisation.name, registerType: 'Business' } };
  }
  const registeredDate = typed(input.values, 'registeredDate', 'the date of registration');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(registeredDate) || Number.isNaN(Date.parse(registeredDate))) {
    throw new PayloadInputError('registeredDate', 'must be a date (YYYY-MM-DD)');
  }
  return { name, subject: { type: ['RegisteredIdentity'], ...common, registeredName: organisation.name, registeredDate, registerType: 'business' } };
};

export const identityAnchor: PayloadBuilder = {
  credentialType: 'DigitalIdentityAnchor',
  versions: UNTP_VERSIONS,
  pickers: ['organisation'],
  fields: (version) => (isV06(version) ? [] : [{ key: 'registeredDate', label: 'Date of registration', type: 'date' }]),
  build,
};
