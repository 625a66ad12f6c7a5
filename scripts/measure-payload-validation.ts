/**
 * How long validating one credential payload takes once caches are warm (issue 14 targets ~200
 * issuances/s on 2 cores): JSON Schema validation and JSON-LD expansion of a UNTP 0.7.0 DPP, measured
 * separately, offline (bundled artefacts). Run: node --import tsx scripts/measure-payload-validation.ts [rounds]
 */
import { createPayloadChecks } from '../core/credentials/payload-validation.ts';
import { documentSettings, offlineFetcher, readSample } from '../core/credentials/test-support/offline.ts';

const rounds = Number(process.argv[2] ?? 200);
const checks = createPayloadChecks(offlineFetcher(), documentSettings());
const schema = 'https://untp.unece.org/artefacts/schema/v0.7.0/dpp/DigitalProductPassport.json';

for (const file of ['0.7.0-prerelease/dpp/DigitalProductPassport_instance.json', '0.7.0-prerelease/dpp/DigitalProductPassport_battery_instance.json', '0.6.1/untp-dpp-instance-0.6.1.json']) {
  const payload = readSample(file);
  const schemaUrl = file.startsWith('0.6.1') ? 'https://test.uncefact.org/vocabulary/untp/dpp/untp-dpp-schema-0.6.1.json' : schema;
  const cold = performance.now();
  await checks.validateSchemas(payload, [schemaUrl]);
  await checks.expand(payload);
  const coldMs = performance.now() - cold;
  const time = async (step: () => Promise<unknown>) => {
    const start = performance.now();
    for (let i = 0; i < rounds; i++) await step();
    return (performance.now() - start) / rounds;
  };
  const schemaMs = await time(() => checks.validateSchemas(payload, [schemaUrl]));
  const expandMs = await time(() => checks.expand(payload));
  console.log(`${file}: first ${coldMs.toFixed(0)} ms; warm: schema ${schemaMs.toFixed(2)} ms, JSON-LD expansion ${expandMs.toFixed(2)} ms (${rounds} rounds)`);
}
