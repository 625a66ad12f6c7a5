import { masterDataSecuritySuite } from '../../test/rig/master-data-security.ts';

masterDataSecuritySuite({
  path: 'organisations',
  notFound: 'Organisation not found',
  item: { name: 'Acme Mining' },
  patch: { name: 'Renamed' },
  references: [],
});
