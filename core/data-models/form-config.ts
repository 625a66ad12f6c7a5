/**
 * The entity pickers a credential form needs, by the model's own credential type: an extension whose
 * type is not one of the five registered ones has no sections, whatever its parent. DPP, DCC and DFR
 * add optional conformity scheme and profile pickers; the profile picker depends on the scheme choice.
 */
type Entity = 'Organisation' | 'Facility' | 'Product';

const ENTITIES: Record<string, Entity[]> = {
  DigitalProductPassport: ['Organisation', 'Facility', 'Product'],
  DigitalConformityCredential: ['Organisation'],
  DigitalFacilityRecord: ['Organisation', 'Facility'],
  DigitalIdentityAnchor: ['Organisation'],
  DigitalTraceabilityEvent: ['Organisation', 'Product'],
};
const WITH_CONFORMITY = new Set(['DigitalProductPassport', 'DigitalConformityCredential', 'DigitalFacilityRecord']);

const SOURCES: Record<Entity, string> = {
  Organisation: '/api/v1/organisations',
  Facility: '/api/v1/facilities',
  Product: '/api/v1/products',
};

export interface FormSection {
  key: string;
  label: string;
  type: 'entity-picker';
  entity: string;
  source: string;
  required: boolean;
  dependsOn?: string;
}

export const formConfigFor = (credentialType: string): { credentialType: string; sections: FormSection[] } => {
  const entities = ENTITIES[credentialType];
  if (!entities) return { credentialType, sections: [] };
  const sections: FormSection[] = entities.map((entity) => ({
    key: entity.toLowerCase(),
    label: entity,
    type: 'entity-picker',
    entity,
    source: SOURCES[entity],
    required: true,
  }));
  if (WITH_CONFORMITY.has(credentialType)) {
    sections.push(
      { key: 'conformityScheme', label: 'Conformity scheme', type: 'entity-picker', entity: 'ConformityScheme', source: '/api/v1/cvc/schemes', required: false },
      {
        key: 'conformityProfile',
        label: 'Conformity profile',
        type: 'entity-picker',
        entity: 'ConformityProfile',
        source: '/api/v1/cvc/profiles?schemeId={conformityScheme}',
        required: false,
        dependsOn: 'conformityScheme',
      },
    );
  }
  return { credentialType, sections };
};
