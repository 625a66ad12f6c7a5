import { API_KEY, startStorage } from '../../storage-service/test/storage-harness.ts';
import { measure, report, type LoadResult } from './lib.ts';

/**
 * Storage service on the local backend, load generator on the same machine, 10 connections.
 * Reference: the upstream storage service 3.1.0 measured the same way served about 3,700 public and
 * 2,900 private 1 KB uploads/s and 4,700 reads/s; the target is twice that.
 */
const REFERENCE: Record<string, number> = {
  'upload 1 KB JSON public': 3700,
  'upload 1 KB JSON private': 2900,
  'read 1 KB JSON': 4700,
};
const storage = await startStorage('local');
try {
  const json = JSON.stringify({ data: { payload: 'x'.repeat(1000) } });
  const jsonHeaders = { 'content-type': 'application/json', 'x-api-key': API_KEY };
  const boundary = 'css-bench-boundary';
  // ASCII content so the body can cross into autocannon's worker thread as a string.
  const file = '%PDF-1.7 '.padEnd(1024 * 1024, 'x');
  const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.pdf"\r\nContent-Type: application/pdf\r\n\r\n${file}\r\n--${boundary}--\r\n`;
  const upload = async (path: string, body: string, contentType: string) =>
    (await storage.call('POST', path, { raw: body, headers: { 'content-type': contentType } })).json();
  const small = await upload('/api/v4/public', json, 'application/json');
  const large = await upload('/api/v4/public', multipart, `multipart/form-data; boundary=${boundary}`);

  const rows: LoadResult[] = [
    await measure('upload 1 KB JSON public', { url: `${storage.url}/api/v4/public`, method: 'POST', headers: jsonHeaders, body: json }),
    await measure('upload 1 KB JSON private', { url: `${storage.url}/api/v4/private`, method: 'POST', headers: jsonHeaders, body: json }),
    await measure('read 1 KB JSON', { url: small.uri }),
    await measure('upload 1 MB file public', {
      url: `${storage.url}/api/v4/public`,
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': API_KEY },
      body: multipart,
    }),
    await measure('read 1 MB file', { url: large.uri }),
  ];
  report('Storage service, local backend, 10 connections (reference: upstream 3.1.0 on the same kind of machine)', rows, (row) => REFERENCE[row.name]);
} finally {
  await storage.close();
}
