import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueBody, SAMPLES, samplePayload } from '../rig/credential-fixtures.ts';
import { callJson, CONNECTIONS, pairedMeasurements, recordPairedCpuRatio, recordPairedRatio, startBenchStack, type Contender } from './lib.ts';
import { startStorageProcess, startVcProcess, startWebProcess, VC_API_KEY, type ServiceProcess } from './service-processes.ts';

/**
 * Issue 33: the cost of tracing on issuance. `POST /api/v1/credentials` (0.7.0 DPP, one revocation
 * entry, stored encrypted) through two stacks on one database in the same paired rounds: web, VC and
 * storage processes with OTEL_EXPORTER_OTLP_ENDPOINT set (http/protobuf to a receiver in this process that
 * accepts and discards), and the same three without it. Floor: the VC service alone, mint + sign (the
 * two requests an issuance makes), untraced. Ratio: traced / untraced issuances per second (and CPU).
 */
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };

const stack = await startBenchStack();
const processes: ServiceProcess[] = [];
const start = async (env: Record<string, string>) => {
  const vc = await startVcProcess(stack.databaseUrl, env);
  processes.push(vc);
  const storage = await startStorageProcess(env);
  processes.push(storage);
  const web = await startWebProcess({ databaseUrl: stack.databaseUrl, oidcIssuer: stack.issuer, vcUrl: vc.url, storageUrl: storage.url, env });
  processes.push(web);
  return { vc, storage, web };
};
try {
  const off = await start({});
  const on = await start(otel);
  const token = await stack.token();
  const { did } = await callJson(`${off.web.url}/api/v1/dids`, { method: 'POST', token, expect: 201, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'tracing-bench' } });
  const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did);
  const body = JSON.stringify(issueBody('DigitalProductPassport', '0.7.0', payload, { statusPurposes: ['revocation'], storageOptions: { encrypt: true } }));
  // Both stacks sign with the same DID: the VC services share the database, the web processes the system instances.
  for (const stackOf of [off, on]) await callJson(`${stackOf.web.url}/api/v1/credentials`, { method: 'POST', token, expect: 201, body: JSON.parse(body) });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const vcHeaders = { 'content-type': 'application/json', authorization: `Bearer ${VC_API_KEY}` };
  const entry = await callJson(`${off.vc.url}/agent/issueBitstringStatusList`, { method: 'POST', token: VC_API_KEY, body: { statusPurpose: 'revocation', bitstringStatusIssuer: did } });
  const mint = { method: 'POST' as const, path: '/agent/issueBitstringStatusList', headers: vcHeaders, body: JSON.stringify({ statusPurpose: 'revocation', bitstringStatusIssuer: did }) };
  const sign = { method: 'POST' as const, path: '/v2/credentials/issue', headers: vcHeaders, body: JSON.stringify({ credential: { ...payload, credentialStatus: entry }, options: { proofFormat: 'EnvelopingProofJose' } }) };

  const traced = 'POST /credentials, tracing on (web, VC, storage exporting)';
  const untraced = 'POST /credentials, tracing off';
  const floor = 'floor: VC service mint + sign, untraced';
  const contenders: Contender[] = [
    { name: untraced, load: { url: `${off.web.url}/api/v1/credentials`, method: 'POST', headers: auth, body, serverPid: off.web.pid } },
    { name: traced, load: { url: `${on.web.url}/api/v1/credentials`, method: 'POST', headers: auth, body, serverPid: on.web.pid } },
    { name: floor, load: { url: off.vc.url, requests: [mint, sign] }, requestsPerOperation: 2 },
  ];
  const results = await pairedMeasurements(`Issuance at ${CONNECTIONS} connections, tracing on and off (req/s of the floor = issuances/s)`, contenders);
  recordPairedRatio(results, traced, untraced);
  recordPairedCpuRatio(results, traced, untraced);
  recordPairedRatio(results, untraced, floor);
  recordPairedRatio(results, traced, floor);
} finally {
  for (const program of processes.reverse()) await program.stop();
  await stack.close();
  receiver.close();
}
