import { masterDataSecuritySuite } from '../../test/rig/master-data-security.ts';

masterDataSecuritySuite({
  path: 'products',
  notFound: 'Product not found',
  item: { name: 'Spodumene concentrate', level: 'ITEM' },
  patch: { name: 'Renamed' },
  references: [
    { field: 'producedByOrganisationId', path: 'organisations', item: { name: 'Producer' }, what: 'organisation' },
    { field: 'manufacturingFacilityId', path: 'facilities', item: { name: 'Plant' }, what: 'facility' },
    { field: 'parentId', path: 'products', item: { name: 'Parent model', level: 'MODEL' }, what: 'parent product' },
  ],
});
