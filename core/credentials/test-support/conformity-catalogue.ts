/** A conformity catalogue matching the 0.7.0 DCC samples' Coppermark claims (criteria 26, 27, 12, 28). */
const topic = (name: string) => ({ id: `https://vocabulary.uncefact.org/conformity-topic/${name}` });
const criterion = (n: number, topicName: string) => ({ id: `https://coppermark.org/rra/v3.0/criterion/${n}`, name: `Criterion ${n}`, conformityTopic: [topic(topicName)] });

export const COPPERMARK_SCHEME = {
  id: 'https://coppermark.org',
  name: 'Coppermark',
  includedProfile: [
    {
      id: 'https://coppermark.org/rra/v3.0',
      name: 'Coppermark Responsible Risk Assessment (RRA) v3.0',
      version: '3.0',
      criterion: [criterion(26, 'greenhouse-gas-emissions'), criterion(27, 'renewable-energy-use'), criterion(12, 'forced-labor-elimination'), criterion(28, 'water-conservation')],
    },
    { id: 'https://coppermark.org/other/v1.0', name: 'Another Coppermark profile', criterion: [] },
  ],
};

/** A tenant's own catalogue entry for the battery sample's scheme. */
export const RBA_SCHEME = {
  id: 'https://responsiblebusiness.org',
  name: 'Responsible Business Alliance',
  includedProfile: [
    {
      id: 'https://responsiblebusiness.org/vap/v8.0.2',
      name: 'Validated Assessment Program v8.0.2',
      criterion: [
        { id: 'https://responsiblebusiness.org/vap/v8.0.2/criterion/A7', name: 'A7', conformityTopic: [topic('emergency-readiness')] },
        { id: 'https://responsiblebusiness.org/vap/v8.0.2/criterion/A1', name: 'A1', conformityTopic: [topic('forced-labor-elimination')] },
        { id: 'https://responsiblebusiness.org/vap/v8.0.2/criterion/C4', name: 'C4', conformityTopic: [topic('chemical-safety')] },
      ],
    },
  ],
};
