export * from './tenants.ts';
export * from './service-instances.ts';
export * from './registrars.ts';
export * from './master-data.ts';
export * from './identifier-links.ts';
export * from './data-models.ts';
export * from './render-templates.ts';
export * from './conformity-catalogue.ts';
