import { request } from 'node:http';

/** A call from a loopback address of our choosing (another client, as far as the socket shows); a JSON answer. */
export const callFrom = (localAddress: string, method: string, url: string, body?: unknown) =>
  // biome-ignore lint: callers read arbitrary JSON.
  new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    const req = request(url, { method, localAddress, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
