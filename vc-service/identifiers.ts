import type postgres from 'postgres';
import type { Logger } from '../core/logging/logger.ts';
import { didOfAlias, signingKid } from './did-web.ts';
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

/**
 * The key a DID signs with (its newest), decrypted, with the verification method its JWS `kid` names and
 * every public key of the DID, oldest first: a rotated-out key stays in the document for verifying.
 */
export interface SigningKey extends Ed25519Key {
  methodId: string;
  publicKeyHexes: string[];
}

/** Other processes of this service evict a DID from their key caches when it is created or deleted. */
const CHANGED = 'vc_service_identifier_changed';
/** How long a decrypted key is reused without asking the database (deletes also notify). */
const KEY_CACHE_MS = 60_000;

/**
 * The DIDs this service holds, with their keys (sealed by the vault). Signing keys are decrypted
 * once and cached as CryptoKeys per process (per request at the edge).
 */
export const createIdentifierStore = (sql: postgres.Sql, vault: KeyVault, logger: Logger) => {
  const keyCache = new Map<string, { key: SigningKey; expires: number }>();
  const select = (where: postgres.PendingQuery<postgres.Row[]> | postgres.Helper<unknown>) => sql<Row[]>`
    select i.did, i.alias, i.provider,
      coalesce(json_agg(json_build_object('kid', k.kid, 'publicKeyHex', k.public_key_hex) order by k.created_at, k.kid)
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
      const created = await sql.begin(async (tx) => {
        const [row] = await tx`insert into vc_service.identifiers (did, alias) values (${did}, ${alias}) on conflict do nothing returning did`;
        if (!row) return false;
        const { sealed, sealingKeyId } = await vault.seal(key.privateKey);
        await tx`insert into vc_service.keys (kid, did, public_key_hex, private_key, sealing_key_id)
          values (${key.publicKeyHex}, ${did}, ${key.publicKeyHex}, ${sealed}, ${sealingKeyId})`;
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

    /** The DID's signing key (its newest), decrypted (cached), or undefined when this service does not hold the DID. */
    async signingKey(did: string): Promise<SigningKey | undefined> {
      const cached = keyCache.get(did);
      if (cached && cached.expires > Date.now()) return cached.key;
      const rows = await sql<{ public_key_hex: string; private_key: Uint8Array; sealing_key_id: string | null }[]>`
        select public_key_hex, private_key, sealing_key_id from vc_service.keys where did = ${did} order by created_at, kid`;
      const newest = rows.at(-1);
      if (!newest) {
        keyCache.delete(did);
        return undefined;
      }
      const key = {
        ...(await vault.open(newest.private_key, newest.sealing_key_id)),
        methodId: signingKid(did, newest.public_key_hex, rows.length - 1),
        publicKeyHexes: rows.map((row) => row.public_key_hex),
      };
      keyCache.set(did, { key, expires: Date.now() + KEY_CACHE_MS });
      return key;
    },

    /**
     * A new signing key for a DID this service holds: added to its document and used for every signature
     * from now on; the older keys stay in the document, so what they signed still verifies.
     */
    async rotateKey(did: string): Promise<Identifier | undefined> {
      const key = await generateEd25519();
      const { sealed, sealingKeyId } = await vault.seal(key.privateKey);
      const added = await sql.begin(async (tx) => {
        const [held] = await tx`select did from vc_service.identifiers where did = ${did} for update`;
        if (!held) return false;
        await tx`insert into vc_service.keys (kid, did, public_key_hex, private_key, sealing_key_id, created_at)
          values (${key.publicKeyHex}, ${did}, ${key.publicKeyHex}, ${sealed}, ${sealingKeyId},
            greatest(now(), (select max(created_at) + interval '1 microsecond' from vc_service.keys where did = ${did})))`;
        await tx`select pg_notify(${CHANGED}, ${did})`;
        return true;
      });
      keyCache.delete(did);
      if (!added) return undefined;
      logger.info('DID key rotated', { did, kid: key.publicKeyHex });
      const [row] = await select(sql`i.did = ${did}`);
      return row && identifierOf(row);
    },
  };
};

export type IdentifierStore = ReturnType<typeof createIdentifierStore>;
