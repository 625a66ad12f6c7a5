import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real TLS for tests: a throw-away CA and certificates for 127.0.0.1 made with the openssl CLI
 * (node:crypto cannot issue X.509), and HTTPS servers on loopback that serve what a test puts at a
 * path. `valid` is signed by the test CA (trust it via `caPem`); `expired` is signed by the same CA
 * but its validity ended; `selfSigned` is its own issuer.
 */
export interface TlsMaterial {
  caPem: string;
  valid: { key: string; cert: string };
  expired: { key: string; cert: string };
  selfSigned: { key: string; cert: string };
  dispose(): void;
}

export const makeTlsMaterial = (): TlsMaterial => {
  const dir = mkdtempSync(join(tmpdir(), 'css-tls-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=CSS Test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const leaf = (name: string) => {
    ssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', '/CN=127.0.0.1');
  };
  leaf('valid');
  ssl('x509', '-req', '-in', 'valid.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'valid.pem', '-days', '2', '-extfile', 'san.ext');
  // `openssl ca` is the CLI that takes explicit validity dates: this one ended a year ago.
  leaf('expired');
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  writeFileSync(
    join(dir, 'ca.cnf'),
    ['[ca]', 'default_ca=test', '[test]', `dir=${dir}`, 'database=$dir/index.txt', 'serial=$dir/serial', 'new_certs_dir=$dir',
      'certificate=$dir/ca.pem', 'private_key=$dir/ca.key', 'default_md=sha256', 'policy=any', 'copy_extensions=none', 'unique_subject=no',
      'x509_extensions=leaf', '[any]', 'commonName=supplied', '[leaf]', 'subjectAltName=IP:127.0.0.1,DNS:localhost', 'basicConstraints=CA:FALSE', ''].join('\n'),
  );
  ssl('ca', '-batch', '-config', 'ca.cnf', '-in', 'expired.csr', '-out', 'expired.pem', '-startdate', '20200101000000Z', '-enddate', '20210101000000Z', '-notext');
  ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'self.key', '-out', 'self.pem', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1');
  const material = {
    caPem: file('ca.pem'),
    valid: { key: file('valid.key'), cert: file('valid.pem') },
    expired: { key: file('expired.key'), cert: file('expired.pem') },
    selfSigned: { key: file('self.key'), cert: file('self.pem') },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
  return material;
};

export interface Hosted {
  status?: number;
  body?: string;
  /** Redirect target (absolute URL): answered with 302. */
  location?: string;
}

export interface TlsHost {
  port: number;
  origin: string;
  /** did:web host of this server: `127.0.0.1%3A<port>`. */
  didHost: string;
  /** What a path answers (unset paths answer 404). */
  routes: Map<string, Hosted>;
  close(): Promise<void>;
}

export const startTlsHost = async (pair: { key: string; cert: string }): Promise<TlsHost> => {
  const routes = new Map<string, Hosted>();
  const server: Server = createServer(pair, (req, res) => {
    const hosted = routes.get(new URL(req.url!, 'https://host').pathname);
    if (!hosted) {
      res.writeHead(404).end('not found');
      return;
    }
    if (hosted.location) {
      res.writeHead(302, { location: hosted.location }).end();
      return;
    }
    res.writeHead(hosted.status ?? 200, { 'content-type': 'application/json' }).end(hosted.body ?? '');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `https://127.0.0.1:${port}`,
    didHost: `127.0.0.1%3A${port}`,
    routes,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};
