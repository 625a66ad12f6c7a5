import type postgres from 'postgres';
import type { Logger } from '../core/logging/logger.ts';
import { didOfAlias } from './did-web.ts';
import { VcError } from './errors.ts';
import { generateEd25519, type Ed25519Key, type KeyVault } from './key-vault.ts';

/** Veramo's `IIdentifier` as VCkit answers it (contract C.4); never carries private key material. */
export interface Identifier {
  did: string;
  alias: string;
  provider: string;
  controllerKeyId: string | undefined;
  keys: { kid: string; type: 'Ed25519'; publicKeyHex: string; kms: 'local'; meta: { algorithms: string[] } }[];
  services: never[];
}

interface Row {
  did: string;
  alias: string;
  provider: string;
  keys: { kid: string; publicKeyHex: string }[];
}

const identifierOf = (row: Row): Identifier => ({
  did: row.did,
  alias: row.alias,
  provider: row.provider,
  controllerKeyId: row.keys[0]?.kid,
  keys: row.keys.map((k) => ({ kid: k.kid, type: 'Ed25519', publicKeyHex: k.publicKeyHex, kms: 'local', meta: { algorithms: ['EdDSA', 'Ed25519'] } })),
  services: [],
});

/** Other processes of this service evict a DID from their key caches when it is created or deleted. */
const CHANGED = 'vc_service_identifier_changed';
/** How long a decrypted key is reused without asking the database (deletes also notify). */
const KEY_CACHE_MS = 60_000;

/**
 * The DIDs this service holds, with their keys (sealed by the vault). Signing keys are decrypted
 * once and cached as CryptoKeys per process (per request at the edge).
 */
export const createIdentifierStore = (sql: postgres.Sql, vault: KeyVault, logger: Logger) => {
  const keyCache = new Map<string, { key: Ed25519Key; expires: number }>();
  const select = (where: postgres.PendingQuery<postgres.Row[]> | postgres.Helper<unknown>) => sql<Row[]>`
    select i.did, i.alias, i.provider,
      coalesce(json_agg(json_build_object('kid', k.kid, 'publicKeyHex', k.public_key_hex) order by k.created_at)
        filter (where k.kid is not null), '[]') as keys
    from vc_service.identifiers i left join vc_service.keys k on k.did = i.did
    where ${where} group by i.did order by i.created_at, i.did`;

  return {
    /** Starts listening for other processes' changes (the cache works without it, up to its TTL). */
    async listen() {
      await sql.listen(CHANGED, (did) => keyCache.delete(did)).catch((error) => logger.warn('DID change listener failed', { error: String(error) }));
    },

    async create(alias: string): Promise<Identifier> {
      const did = didOfAlias(alias);
      const key = await generateEd25519();
      const sealed = await vault.seal(key.privateKey);
      const created = await sql.begin(async (tx) => {
        const [row] = await tx`insert into vc_service.identifiers (did, alias) values (${did}, ${alias}) on conflict do nothing returning did`;
        if (!row) return false;
        await tx`insert into vc_service.keys (kid, did, public_key_hex, private_key)
          values (${key.publicKeyHex}, ${did}, ${key.publicKeyHex}, ${sealed})`;
        await tx`select pg_notify(${CHANGED}, ${did})`;
        return true;
      });
      if (!created) throw new VcError(409, 'already_exists', `Identifier with alias: ${alias}, provider: did:web already exists`);
      logger.info('DID created', { did, kid: key.publicKeyHex });
      return identifierOf({ did, alias, provider: 'did:web', keys: [{ kid: key.publicKeyHex, publicKeyHex: key.publicKeyHex }] });
    },

    async get(did: string): Promise<Identifier | undefined> {
      const [row] = await select(sql`i.did = ${did}`);
      return row && identifierOf(row);
    },

    async find(filter: { alias?: string; provider?: string }): Promise<Identifier[]> {
      const rows = await select(sql`(${filter.alias ?? null}::text is null or i.alias = ${filter.alias ?? null})
        and (${filter.provider ?? null}::text is null or i.provider = ${filter.provider ?? null})`);
      return rows.map(identifierOf);
    },

    async delete(did: string): Promise<boolean> {
      const rows = await sql`delete from vc_service.identifiers where did = ${did} returning did`;
      keyCache.delete(did);
      if (rows.length === 0) return false;
      await sql`select pg_notify(${CHANGED}, ${did})`;
      logger.info('DID deleted', { did });
      return true;
    },

    /** The DID's signing key, decrypted (cached), or undefined when this service does not hold the DID. */
    async signingKey(did: string): Promise<Ed25519Key | undefined> {
      const cached = keyCache.get(did);
      if (cached && cached.expires > Date.now()) return cached.key;
      const [row] = await sql<{ private_key: Uint8Array }[]>`
        select private_key from vc_service.keys where did = ${did} order by created_at limit 1`;
      if (!row) {
        keyCache.delete(did);
        return undefined;
      }
      const key = await vault.open(row.private_key);
      keyCache.set(did, { key, expires: Date.now() + KEY_CACHE_MS });
      return key;
    },
  };
};

export type IdentifierStore = ReturnType<typeof createIdentifierStore>;
