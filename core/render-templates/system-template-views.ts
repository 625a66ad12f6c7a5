// The bodies of the system templates: each UNTP type's key facts (what it is, who issued it, the product,
// facility or party, identifiers, validity, claims with values and units, conformity), in the
// Handlebars-style syntax of template-engine.js. Missing data renders nothing, so one view serves every
// sample of its type. 0.7.0 puts the product, facility or party directly in credentialSubject; 0.6.x
// nests it (credentialSubject.product, credentialSubject.facility).

/** A row of a definition list, shown only when the value exists. */
const row = (label: string, path: string, shown = `{{${path}}}`) => `{{#if ${path}}}<dt>${label}</dt><dd>${shown}</dd>{{/if}}`;
const rows = (...pairs: [string, string, string?][]) => `<dl class="untp-facts">${pairs.map(([l, p, shown]) => row(l, p, shown)).join('')}</dl>`;
/** A titled section over a list, shown only when the list has entries. */
const list = (title: string, path: string, item: string) =>
  `{{#if ${path}}}<section class="untp-section"><h2>${title}</h2><ul class="untp-list">{{#each ${path}}}<li>${item}</li>{{/each}}</ul></section>{{/if}}`;
const section = (title: string, path: string, body: string) => `{{#if ${path}}}<section class="untp-section"><h2>${title}</h2>${body}</section>{{/if}}`;
const measure = (path: string) => `{{${path}.value}} {{${path}.unit}}`;
const parties = list('Parties', 'relatedParty', '<strong>{{party.name}}</strong> <span class="untp-muted">{{role}}</span>');
const documents = list('Documents', 'relatedDocument', '<a href="{{linkURL}}">{{linkName}}</a>');

const performanceClaims = (path: string) =>
  list('Claims', path,
    '<strong>{{name}}</strong>{{#if claimDate}} <span class="untp-muted">({{claimDate}})</span>{{/if}}' +
    '{{#each claimedPerformance}}<div class="untp-measure"><span>{{metric.name}}</span> <b>{{measure.value}} {{measure.unit}}</b></div>{{/each}}' +
    '{{#each referenceCriteria}}<div class="untp-muted">Criterion: {{name}}</div>{{/each}}');

const v07: Record<string, { title: string; name: string; body: string }> = {
  DigitalProductPassport: {
    title: 'Digital Product Passport',
    name: 'credentialSubject.name',
    body: '{{#with credentialSubject}}<p>{{description}}</p>' +
      rows(['Product id', 'id'], ['Model', 'modelNumber'], ['Batch', 'batchNumber'], ['Identifier scheme', 'idScheme.name'], ['Produced', 'productionDate'],
        ['Country of production', 'countryOfProduction.countryName'], ['Facility', 'producedAtFacility.name'], ['Weight', 'dimensions.weight', measure('dimensions.weight')]) +
      list('Category', 'productCategory', '{{name}} <span class="untp-muted">{{code}}</span>') +
      performanceClaims('performanceClaim') +
      list('Materials', 'materialProvenance', '<strong>{{name}}</strong> {{#if massFraction}}· mass fraction {{massFraction}}{{/if}} {{#if originCountry}}· from {{originCountry.countryName}}{{/if}}{{#if mass}} · ' + measure('mass') + '{{/if}}') +
      parties + documents + '{{/with}}',
  },
  DigitalConformityCredential: {
    title: 'Conformity Credential',
    name: 'credentialSubject.name',
    body: '{{#with credentialSubject}}<p>{{description}}</p>' +
      rows(['Issued to', 'issuedToParty.name'], ['Scheme', 'referenceScheme.name'], ['Profile', 'referenceProfile.name'], ['Assessor level', 'assessorLevel'],
        ['Assessment level', 'assessmentLevel'], ['Attestation', 'attestationType'], ['Score', 'profileScore.code']) +
      list('Assessments', 'conformityAssessment',
        '<strong>{{name}}</strong>{{#if assessmentDate}} <span class="untp-muted">({{assessmentDate}})</span>{{/if}}' +
        '{{#if conformance}}<div class="untp-ok">Conforms</div>{{/if}}' +
        '{{#each assessedPerformance}}<div class="untp-measure"><span>{{metric.name}}</span> <b>{{measure.value}} {{measure.unit}}</b></div>{{/each}}') +
      '{{#with conformityCertificate}}<p><a href="{{linkURL}}">{{linkName}}</a></p>{{/with}}{{/with}}',
  },
  DigitalFacilityRecord: {
    title: 'Facility Record',
    name: 'credentialSubject.name',
    body: '{{#with credentialSubject}}<p>{{description}}</p>' +
      rows(['Facility id', 'id'], ['Registered id', 'registeredId'], ['Identifier scheme', 'idScheme.name'], ['Country', 'countryOfOperation.countryName'],
        ['Address', 'address.streetAddress'], ['Locality', 'address.addressLocality'], ['Plus code', 'locationInformation.plusCode']) +
      list('Processes', 'processCategory', '{{name}} <span class="untp-muted">{{code}}</span>') +
      performanceClaims('performanceClaim') + parties + documents + '{{/with}}',
  },
  DigitalIdentityAnchor: {
    title: 'Identity Anchor',
    name: 'credentialSubject.registeredName',
    body: '{{#with credentialSubject}}' +
      rows(['Registered id', 'registeredId'], ['Registered on', 'registeredDate'], ['Register', 'registerType'], ['Registrar', 'registrar.name'],
        ['Identifier scheme', 'idScheme.name'], ['Subject', 'id'], ['Public information', 'publicInformation']) + '{{/with}}',
  },
  DigitalTraceabilityEvent: {
    title: 'Traceability Event',
    name: 'credentialSubject.0.name',
    body: '{{#each credentialSubject}}<section class="untp-section"><h2>{{name}}</h2><p>{{description}}</p>' +
      rows(['Date', 'eventDate'], ['Activity', 'activityType.name'], ['From', 'fromFacility.name'], ['To', 'toFacility.name'], ['Consignment', 'consignmentId']) +
      list('Products', 'movedProduct', '<strong>{{product.name}}</strong> <b>{{quantity.value}} {{quantity.unit}}</b> {{#if product.batchNumber}}<span class="untp-muted">batch {{product.batchNumber}}</span>{{/if}}') +
      list('Inputs', 'inputProduct', '<strong>{{product.name}}</strong> <b>{{quantity.value}} {{quantity.unit}}</b>') +
      list('Outputs', 'outputProduct', '<strong>{{product.name}}</strong> <b>{{quantity.value}} {{quantity.unit}}</b>') +
      parties + '</section>{{/each}}',
  },
  ConformityScheme: {
    title: 'Conformity Scheme',
    name: 'credentialSubject.name',
    body: '{{#with credentialSubject}}<p>{{description}}</p>' +
      rows(['Scheme id', 'id'], ['Owner', 'owner.name'], ['Version', 'version']) +
      list('Profiles', 'schemeProfile', '{{name}}') + '{{/with}}',
  },
};

const conformityClaims06 = list('Conformity claims', 'conformityClaim',
  '{{description}}{{#if referenceStandard}} <span class="untp-muted">· {{referenceStandard.name}}</span>{{/if}}' +
  '{{#if conformance}}<div class="untp-ok">Conforms</div>{{/if}}' +
  '{{#each declaredValue}}<div class="untp-measure"><span>{{metricName}}</span> <b>{{metricValue.value}} {{metricValue.unit}}</b></div>{{/each}}');

const v06: Record<string, { title: string; name: string; body: string }> = {
  DigitalProductPassport: {
    title: 'Digital Product Passport',
    name: 'credentialSubject.product.name',
    body: '{{#with credentialSubject}}{{#with product}}<p>{{description}}</p>' +
      rows(['Product id', 'id'], ['Registered id', 'registeredId'], ['Identifier scheme', 'idScheme.name'], ['Batch', 'batchNumber'], ['Serial', 'serialNumber'],
        ['Produced by', 'producedByParty.name'], ['Facility', 'producedAtFacility.name'], ['Produced', 'productionDate'], ['Country of production', 'countryOfProduction']) +
      '{{/with}}' +
      section('Emissions', 'emissionsScorecard', rows(['Carbon footprint', 'emissionsScorecard.carbonFootprint'], ['Unit', 'emissionsScorecard.declaredUnit'], ['Scope', 'emissionsScorecard.operationalScope'])) +
      conformityClaims06 + '{{/with}}',
  },
  DigitalConformityCredential: {
    title: 'Conformity Credential',
    name: 'credentialSubject.name',
    body: '{{#with credentialSubject}}<p>{{description}}</p>' +
      rows(['Issued to', 'issuedToParty.name'], ['Scope', 'scope.name'], ['Scheme owner', 'scope.owner.name'], ['Assessor level', 'assessorLevel'], ['Attestation', 'attestationType']) +
      list('Assessments', 'assessment',
        '<strong>{{name}}</strong>{{#if assessmentDate}} <span class="untp-muted">({{assessmentDate}})</span>{{/if}}' +
        '{{#if referenceStandard}}<div class="untp-muted">{{referenceStandard.name}}</div>{{/if}}{{#if conformance}}<div class="untp-ok">Conforms</div>{{/if}}' +
        '{{#each declaredValue}}<div class="untp-measure"><span>{{metricName}}</span> <b>{{metricValue.value}} {{metricValue.unit}}</b></div>{{/each}}') + '{{/with}}',
  },
  DigitalFacilityRecord: {
    title: 'Facility Record',
    name: 'credentialSubject.facility.name',
    body: '{{#with credentialSubject}}{{#with facility}}<p>{{description}}</p>' +
      rows(['Facility id', 'id'], ['Registered id', 'registeredId'], ['Country', 'countryOfOperation'], ['Operated by', 'operatedByParty.name'],
        ['Address', 'address.streetAddress'], ['Locality', 'address.addressLocality']) +
      list('Processes', 'processCategory', '{{name}} <span class="untp-muted">{{code}}</span>') + '{{/with}}' + conformityClaims06 + '{{/with}}',
  },
  DigitalIdentityAnchor: {
    title: 'Identity Anchor',
    name: 'credentialSubject.name',
    body: '{{#with credentialSubject}}' + rows(['Registered id', 'registeredId'], ['Register', 'registerType'], ['Identifier scheme', 'idScheme.name'], ['Subject', 'id']) + '{{/with}}',
  },
  DigitalTraceabilityEvent: {
    title: 'Traceability Event',
    name: 'credentialSubject.0.processType',
    body: '{{#each credentialSubject}}<section class="untp-section"><h2>{{processType}}</h2>' +
      rows(['Time', 'eventTime'], ['Action', 'action'], ['Step', 'bizStep'], ['Disposition', 'disposition'], ['Location', 'bizLocation']) +
      list('Inputs', 'inputQuantityList', '<strong>{{productName}}</strong> <b>{{quantity}} {{uom}}</b>') +
      list('Outputs', 'outputQuantityList', '<strong>{{productName}}</strong> <b>{{quantity}} {{uom}}</b>') +
      list('Items', 'outputEPCList', '{{name}} <span class="untp-muted">{{id}}</span>') + '</section>{{/each}}',
  },
};

export const SYSTEM_TEMPLATE_STYLE = `<style>
  .untp-card { font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif; max-width: 46rem; margin: 0 auto; padding: 1rem; border: 1px solid #c8ced6; border-radius: 0.75rem; color: #1b1f24; background: #fff; overflow-wrap: anywhere; }
  .untp-card h1 { font-size: 1.45rem; line-height: 1.25; margin: 0.1rem 0 0.25rem; }
  .untp-card h2 { font-size: 1.05rem; margin: 0 0 0.4rem; }
  .untp-kind { margin: 0; font-size: 0.85rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; color: #1a4fbf; }
  .untp-meta, .untp-muted { color: #4a5561; }
  .untp-meta { margin: 0 0 0.75rem; font-size: 0.9rem; }
  .untp-facts { display: grid; grid-template-columns: minmax(7rem, max-content) 1fr; gap: 0.3rem 1rem; margin: 0.75rem 0; }
  .untp-facts dt { font-weight: 600; }
  .untp-facts dd { margin: 0; }
  .untp-section { border-top: 1px solid #e1e5ea; padding-top: 0.75rem; margin-top: 0.75rem; }
  .untp-list { margin: 0; padding-left: 1.1rem; }
  .untp-list li { margin-bottom: 0.4rem; }
  .untp-measure { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 1rem; }
  .untp-ok { color: #0b6b2c; font-weight: 600; }
  .untp-card a { color: #1a4fbf; }
  .untp-card footer { margin-top: 1rem; font-size: 0.8rem; }
  @media (max-width: 30rem) { .untp-card { padding: 0.75rem; border: none; } .untp-facts { grid-template-columns: 1fr; gap: 0; } .untp-facts dd { margin-bottom: 0.4rem; } }
  @media print { .untp-card { border: none; } }
</style>`;

/** The view of a core type at a version (0.6.x or later), or a generic one for a type without its own. */
export const systemView = (credentialType: string, version: string) => {
  const views = /^0\.[0-6](\.|$)/.test(version) ? v06 : v07;
  return views[credentialType] ?? { title: credentialType, name: 'credentialSubject.name', body: '{{#with credentialSubject}}' + rows(['Subject', 'id']) + '{{/with}}' };
};
