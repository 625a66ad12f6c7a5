import { isV06, UNTP_VERSIONS, type BuilderInput, type PayloadBuilder } from './builder.ts';
import { facilityRef, identifierUri, isoSeconds, party, productRef, required } from './master-records.ts';

const COMMISSIONING = 'https://ref.gs1.org/cbv/BizStep-commissioning';

/**
 * The Digital Traceability Event: the chosen product made (commissioned) at the chosen facility, now. UNTP
 * 0.7.0's make event names the facility, which form-config's DTE pickers leave out, so this type adds that
 * picker.
 */
const build = (input: BuilderInput) => {
  const product = required(input.product, 'product', 'the product the event made');
  const facility = required(input.facility, 'facility', 'the facility where it was made');
  const id = `urn:uuid:${crypto.randomUUID()}`;
  const when = isoSeconds(input.now);
  const name = `Digital Traceability Event — ${product.name} made`;
  if (isV06(input.version)) {
    return {
      name,
      subject: [
        {
          type: ['TransformationEvent', 'Event'],
          id,
          processType: 'Manufacturing',
          eventTime: when,
          action: 'add',
          bizStep: COMMISSIONING,
          bizLocation: identifierUri(facility, 'facility'),
          outputEPCList: [{ type: ['Item'], id: identifierUri(product, 'product'), name: product.name }],
        },
      ],
    };
  }
  return {
    name,
    subject: [
      {
        type: ['MakeEvent', 'LifecycleEvent'],
        id,
        name: `${product.name} made at ${facility.name}`,
        eventDate: when,
        activityType: { code: 'commissioning', name: 'Commissioning', schemeId: 'https://ref.gs1.org/cbv/BizStep', schemeName: 'GS1 CBV business steps' },
        relatedParty: [{ role: 'manufacturer', party: party(input.organisation, input.issuerDid) }],
        inputProduct: [],
        outputProduct: [{ product: { ...productRef(product), idGranularity: product.level.toLowerCase() } }],
        madeAtFacility: facilityRef(facility),
      },
    ],
  };
};

export const traceabilityEvent: PayloadBuilder = {
  credentialType: 'DigitalTraceabilityEvent',
  versions: UNTP_VERSIONS,
  pickers: ['organisation', 'product', 'facility'],
  fields: () => [],
  build,
};
