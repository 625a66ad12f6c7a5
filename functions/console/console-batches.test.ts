import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBatchConsumer } from '../../consumers/jobs/issue-batch.ts';
import type { RunningWorker } from '../../consumers/worker.ts';
import { startIssuanceRig, systemServicesEnv, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { consoleMasterData, type ConsoleUser, signInToConsole } from '../../test/rig/console-user.ts';
import { startTestWorker } from '../../test/rig/jobs.ts';

const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';

describe('console: batches', () => {
  let rig: IssuanceRig;
  let alice: ConsoleUser;
  let data: Awaited<ReturnType<typeof consoleMasterData>>;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    rig = await startIssuanceRig();
    alice = await signInToConsole(rig.t.url, 'alice');
    data = await consoleMasterData(alice, rig.t.url);
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await rig?.close();
  });

  /** Posts a file to the upload form as the browser does (multipart, with the session's CSRF token). */
  const upload = async (name: string, text: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.set('_csrf', await alice.csrfToken());
    form.set('dataModelId', DPP_070);
    form.set('issuerDid', data.did.id);
    form.set('idempotencyKey', crypto.randomUUID());
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new File([text], name, { type: 'text/csv' }));
    const res = await alice.browser.fetch(`${rig.t.url}/console/batches`, { method: 'POST', body: form });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  const row = (i: number) => [`row-${i}`, data.organisation.id, data.facility.id, data.product.id, 'AU'].join(',');
  const csv = (n: number) => ['reference,organisation,facility,product,countryOfProduction', ...Array.from({ length: n }, (_, i) => row(i + 1))].join('\n');

  it('offers a column template with one row per product', async () => {
    const res = await alice.get('/console/batches/template.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.html.split(/\r?\n/)).toEqual(['reference,organisation,facility,product,countryOfProduction', `row-1,${data.organisation.id},${data.facility.id},${data.product.id},`]);
  });

  it('refuses a file with a bad row as a whole, naming the row and field', async () => {
    const bad = await upload('items.csv', `${csv(3)}\nrow-4,${data.organisation.id},${data.facility.id},${data.product.id},Australia`);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('row 4: countryOfProduction: must be a two-letter ISO 3166 country code');
    const missing = await upload('items.csv', `${csv(1)}\nrow-2,${data.organisation.id},,${data.product.id},AU`);
    expect(missing.html).toContain('row 2: facility: choose the facility that produced it');
  });

  it('runs a 50-row CSV batch with progress the page polls for, until every item is issued', { timeout: 120_000 }, async () => {
    const submitted = await upload('items.csv', csv(50));
    expect(submitted.status).toBe(303);
    const page = await alice.get(submitted.location!);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/hx-get="\/console\/batches\/[^"]+\/progress" hx-trigger="every 2s"/);
    expect(page.html).toContain('0 of 50 items settled');

    worker = await startTestWorker(rig.t.databaseUrl, [issueBatchConsumer], undefined, systemServicesEnv(rig));
    let fragment = '';
    for (let attempt = 0; attempt < 600 && !fragment.includes('id="batch-state">COMPLETED<'); attempt++) {
      fragment = (await alice.get(`${submitted.location}/progress`, { 'hx-request': 'true' })).html;
      if (!fragment.includes('COMPLETED')) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(fragment).toContain('50 of 50 items settled');
    expect(fragment).not.toContain('hx-get'); // settled: the page stops polling
    expect(fragment).not.toContain('<html');
    expect((fragment.match(/href="\/console\/credentials\//g) ?? []).length).toBe(50);
  });

  it('cancels a batch that has not run', async () => {
    await worker?.stop();
    worker = undefined;
    const submitted = await upload('items.json', JSON.stringify([{ reference: 'a', organisation: data.organisation.id, facility: data.facility.id, product: data.product.id, countryOfProduction: 'AU' }]));
    expect(submitted.status).toBe(303);
    const cancelled = await alice.post(`${submitted.location}/cancel`, {});
    expect(cancelled.status).toBe(303);
    const page = await alice.get(submitted.location!);
    // Cancelled at once, or marked for the worker to cancel what it has not issued yet.
    expect(page.html).toMatch(/id="batch-state">CANCELLED<|id="cancel-requested"/);
    expect(page.html).not.toContain('Cancel the batch');
  });

  it('answers another person’s batch as a missing one', async () => {
    const submitted = await upload('items.csv', csv(1));
    const bob = await signInToConsole(rig.t.url, 'bob');
    expect((await bob.get(submitted.location!)).status).toBe(404);
    expect((await bob.get(`${submitted.location}/progress`)).status).toBe(404);
    expect((await bob.post(`${submitted.location}/cancel`, {})).status).toBe(404);
    expect((await bob.get('/console/batches')).html).not.toContain(`href="${submitted.location}"`);
  });

  it('lists the batches newest first, by state, which the dashboard counts link to', async () => {
    const all = await alice.get('/console/batches');
    expect(all.status).toBe(200);
    const links = [...all.html.matchAll(/href="(\/console\/batches\/[a-z0-9]{20,})"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThanOrEqual(3);
    const completed = await alice.get('/console/batches?state=COMPLETED');
    expect(completed.html).toContain('<td>completed</td>');
    expect(completed.html).not.toContain('<td>cancelled</td>');
    expect(completed.html).toMatch(/<td>50<\/td><td>50<\/td><td>0<\/td>/);
    const unknownState = await alice.get('/console/batches?state=NOPE');
    expect(unknownState.status).toBe(200);
    expect(unknownState.html).toContain(`${links.length} batches`);
    const dashboard = await alice.get('/console');
    expect(dashboard.html).toContain('href="/console/batches?state=RUNNING"');
    expect(dashboard.html).toContain('href="/console/batches?state=NEEDS_ATTENTION"');
  });
});
