import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { hexHash, sha256 } from '../../storage-service/digests.ts';
import { encryptToEnvelope } from '../../storage-service/envelope.ts';

/**
 * The storage bench's floor, as its own program: a bare `node:http` server doing the same work per
 * request as the storage service minus the framework, routing, validation and API key — parse the
 * JSON, serialise and hash it, encrypt it when private, write it as a new file (exclusive create);
 * read a file back. Small files with synchronous calls, as the service does. One process (compare it with the service's WORKERS=1 rows). PORT, LOCAL_DIRECTORY.
 */
const root = process.env.LOCAL_DIRECTORY!;
const port = Number(process.env.PORT);
mkdirSync(join(root, 'documents'), { recursive: true });

const readBody = async (request: AsyncIterable<Buffer>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

const server = createServer(async (request, response) => {
  try {
    const url = request.url ?? '/';
    if (request.method === 'POST') {
      const { data } = JSON.parse(await readBody(request)) as { data: unknown };
      const json = JSON.stringify(data);
      const hash = hexHash(sha256(Buffer.from(json, 'utf8')));
      const stored = url.endsWith('/private') ? JSON.stringify(encryptToEnvelope(json, 'application/json').envelope) : json;
      const name = `${crypto.randomUUID()}.json`;
      writeFileSync(join(root, 'documents', name), stored, { flag: 'wx' });
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ uri: `http://127.0.0.1:${port}/documents/${name}`, hash }));
      return;
    }
    if (url === '/health-check') {
      response.end('ok');
      return;
    }
    const body = readFileSync(join(root, 'documents', url.split('/').pop()!));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  } catch {
    response.writeHead(500);
    response.end();
  }
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
