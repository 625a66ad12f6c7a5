import { masterDataSecuritySuite } from '../../test/rig/master-data-security.ts';

masterDataSecuritySuite({
  path: 'facilities',
  notFound: 'Facility not found',
  item: { name: 'Pilbara Concentrator', location: { country: 'AU' } },
  patch: { name: 'Renamed' },
  references: [{ field: 'operatingOrganisationId', path: 'organisations', item: { name: 'Operator' }, what: 'organisation' }],
});
