import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the proxy treats a request: `pass` forwards it and returns the answer; `down` drops the
 * connection without forwarding (the service unreachable); `lose-answer` forwards it, lets the real
 * service act on it, then drops the connection (a crash between the call and its answer); `garble`
 * forwards it and answers 200 with a body of the wrong shape; `ack-only` answers 200 `{"status": true}`
 * without forwarding (an acknowledgement the service did not act on); `refuse` answers 400 without
 * forwarding (a refusal); `hold-answer` forwards it, lets the service act, and never answers (a
 * timeout after the service received the request); `close-after` forwards it, answers, then stops
 * listening (the service goes away: the next connection is refused until `listen()`).
 */
export type FaultMode = 'pass' | 'down' | 'lose-answer' | 'garble' | 'ack-only' | 'refuse' | 'hold-answer' | 'close-after';

export interface FaultProxy {
  url: string;
  /** The mode for requests whose path matches `path` (last rule wins); others pass. */
  rule(path: RegExp, mode: FaultMode): void;
  reset(): void;
  /** Paths forwarded so far. */
  forwarded: string[];
  /** Every request that reached the proxy: its path and its x-correlation-id header. */
  received: { path: string; correlationId?: string }[];
  /** Stops listening and drops every connection: connections to `url` are refused until `listen()`. */
  stopListening(): Promise<void>;
  /** Listens again on the same address. */
  listen(): Promise<void>;
  close(): Promise<void>;
}

/** A loopback HTTP proxy in front of a real service, to cut it off at chosen moments. */
export const startFaultProxy = async (target: string): Promise<FaultProxy> => {
  let rules: [RegExp, FaultMode][] = [];
  const forwarded: string[] = [];
  const received: FaultProxy['received'] = [];
  const modeOf = (path: string) => [...rules].reverse().find(([re]) => re.test(path))?.[1] ?? 'pass';
  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const url = new URL(req.url ?? '/', target);
      const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      upstream.on('error', reject);
      upstream.end(body);
    });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const mode = modeOf(req.url ?? '/');
      const correlation = req.headers['x-correlation-id'];
      received.push({ path: req.url ?? '/', ...(typeof correlation === 'string' ? { correlationId: correlation } : {}) });
      if (mode === 'down') return req.socket.destroy();
      if (mode === 'refuse') return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_argument: refused by the test"}');
      if (mode === 'ack-only') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":true}');
      try {
        const answer = await forward(req, Buffer.concat(chunks));
        forwarded.push(req.url ?? '/');
        if (mode === 'lose-answer') return req.socket.destroy();
        if (mode === 'garble') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"unexpected":true}');
        if (mode === 'hold-answer') return;
        if (mode === 'close-after') {
          // The client must not keep this connection for its next request: that one should find nobody listening.
          res.writeHead(answer.status, { ...answer.headers, connection: 'close' });
          return res.end(answer.body, () => void stopListening());
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      } catch {
        req.socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  let listening = true;
  const stopListening = async () => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  const listen = async () => {
    if (listening) return;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    listening = true;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    rule: (path, mode) => {
      rules.push([path, mode]);
    },
    reset: () => {
      rules = [];
    },
    forwarded,
    received,
    stopListening,
    listen,
    close: stopListening,
  };
};
