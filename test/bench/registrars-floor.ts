import { Hono, type Context } from 'hono';
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { findRegistrarWithSchemes, listRegistrars } from '../../core/registrars/registrar-repository.ts';
import type { Database } from '../../db/client.ts';

/**
 * The registrar routes' floor: the same repository functions (the routes' own prepared SQL) behind a bare
 * Hono route, with no auth, tenancy check, validation or platform middleware; `tenantId` stands in for the
 * tenant authentication would find.
 *
 * With `signingKey` (the IDP's RS256 public key) the floor also checks each bearer token's signature with
 * one bare `crypto.verify`, and nothing else about it: the least any route that verifies every token must
 * do, so its ratio is the ceiling of the "verified per request" variant on this machine.
 */
export const registrarsFloor = (db: Database, tenantId: string, signingKey?: KeyObject) => {
  const floor = new Hono();
  const signed = (c: Context) => {
    if (!signingKey) return true;
    const token = c.req.header('authorization')?.slice('Bearer '.length) ?? '';
    const end = token.lastIndexOf('.');
    return end > 0 && verify('sha256', Buffer.from(token.slice(0, end)), signingKey, Buffer.from(token.slice(end + 1), 'base64url'));
  };
  floor.get('/registrars/:id', async (c) => {
    if (!signed(c)) return c.json({ error: 'Bad signature' }, 401);
    const row = await findRegistrarWithSchemes(db, tenantId, c.req.param('id'));
    return row ? c.json(row) : c.json({ error: 'Registrar not found' }, 404);
  });
  floor.get('/registrars', async (c) => {
    if (!signed(c)) return c.json({ error: 'Bad signature' }, 401);
    const { rows, total } = await listRegistrars(db, tenantId, { limit: 20, offset: 0 });
    return c.json({ data: rows, total });
  });
  return floor;
};

/** The IDP's first signing key, from its discovery document's JWKS. */
export const fetchSigningKey = async (issuer: string): Promise<KeyObject> => {
  const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
  const { keys } = (await (await fetch(discovery.jwks_uri)).json()) as { keys: JsonWebKey[] };
  return createPublicKey({ key: keys[0]!, format: 'jwk' });
};
