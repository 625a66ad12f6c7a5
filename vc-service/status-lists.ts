import { Bitstring } from '@digitalbazaar/bitstring';
import type postgres from 'postgres';
import { asObject, invalidArgument, notFoundError, requiredText } from './errors.ts';
import type { IdentifierStore } from './identifiers.ts';
import { envelope } from './signing.ts';
import { bitAt, statusIndexOf } from './status-bits.ts';
import type { StatusReader } from './status-reader.ts';

/** W3C Bitstring Status List v1.0: lists are at least 131,072 entries long (herd privacy). */
export const MIN_LIST_LENGTH = 131_072;
const MAX_LIST_LENGTH = 16 * MIN_LIST_LENGTH;
const PURPOSE = /^[a-z][a-zA-Z]{0,31}$/;
export const STATUS_LIST_PATH = '/credentials/status/bitstring-status-list';
/** Other processes of this service drop a list from their bit caches when one of its bits changes. */
const CHANGED = 'vc_service_status_list_changed';
/** Backstop should a change notification be lost (the listening connection dropped): bits are re-read after this. */
const BITS_CACHE_MS = 5_000;

export interface StatusEntry {
  id: string;
  type: 'BitstringStatusListEntry';
  statusPurpose: string;
  statusListIndex: number;
  statusListCredential: string;
}

const integerField = (body: Record<string, unknown>, field: string, fallback: number, min: number, max: number) => {
  const value = body[field] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidArgument(`${field} must be an integer from ${min} to ${max}`);
  }
  return value;
};

/**
 * Status lists of this service: atomic index allocation (a row update, so processes sharing the
 * database never hand out one index twice), bit changes that re-sign the list credential, and the
 * published credential with its ETag.
 */
export const createStatusLists = (deps: { sql: postgres.Sql; identifiers: IdentifierStore; publicUrl: string }) => {
  const { sql, identifiers } = deps;
  // Verification reads bits from here: a database round trip per credential would cost more than the signature check.
  const bitsCache = new Map<string, { purpose: string; bits: Uint8Array; expires: number }>();
  const cachedBits = async (id: string) => {
    const cached = bitsCache.get(id);
    if (cached && cached.expires > Date.now()) return cached;
    const [row] = await sql<{ purpose: string; bits: Uint8Array }[]>`select purpose, bits from vc_service.status_lists where id = ${id}`;
    if (!row) return undefined;
    const entry = { purpose: row.purpose, bits: new Uint8Array(row.bits), expires: Date.now() + BITS_CACHE_MS };
    bitsCache.set(id, entry);
    return entry;
  };
  const listBase = `${deps.publicUrl}${STATUS_LIST_PATH}/`;
  const urlOf = (id: string | number) => `${listBase}${id}`;

  const signList = async (id: string | number, issuer: string, purpose: string, bits: Uint8Array) => {
    const key = await identifiers.signingKey(issuer);
    if (!key) throw notFoundError(`the issuer ${issuer} of status list ${id} is no longer held by this service`);
    const url = urlOf(id);
    const encodedList = `u${await new Bitstring({ buffer: bits }).encodeBits()}`;
    const credential = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: url,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer,
      validFrom: new Date().toISOString(),
      credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: purpose, encodedList },
    };
    const text = JSON.stringify(await envelope(credential, issuer, key));
    // WebCrypto, so it runs at the edge as on Node.
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
    return { text, etag: `"${btoa(String.fromCharCode(...digest)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '').slice(0, 27)}"` };
  };

  /** The list id a URL of ours names, or undefined for anyone else's URL. */
  const listIdOf = (url: string): string | undefined => {
    if (!url.startsWith(listBase)) return undefined;
    const id = url.slice(listBase.length);
    return /^[1-9]\d{0,15}$/.test(id) ? id : undefined;
  };

  const take = (tx: postgres.Sql | postgres.TransactionSql, issuer: string, purpose: string, length: number) => tx<{ id: string; index: number }[]>`
    update vc_service.status_lists set next_index = next_index + 1, updated_at = now()
    where id = (select id from vc_service.status_lists
                where issuer = ${issuer} and purpose = ${purpose} and length = ${length} and next_index < length
                order by id desc limit 1)
      and next_index < length
    returning id::text, next_index - 1 as index`;

  return {
    listIdOf,

    /** Starts listening for other processes' bit changes (without it, the cache still expires in 5 s). */
    async listen(onError: (error: unknown) => void) {
      await sql.listen(CHANGED, (id) => bitsCache.delete(id)).catch(onError);
    },

    async mint(body: Record<string, unknown>): Promise<StatusEntry> {
      const purpose = requiredText(body, 'statusPurpose');
      if (!PURPOSE.test(purpose)) throw invalidArgument('statusPurpose must be a word such as revocation or suspension');
      const issuer = requiredText(body, 'bitstringStatusIssuer');
      const length = integerField(body, 'bitstringLength', MIN_LIST_LENGTH, MIN_LIST_LENGTH, MAX_LIST_LENGTH);
      if (length % 8 !== 0) throw invalidArgument('bitstringLength must be a multiple of 8');
      integerField(body, 'statusSize', 1, 1, 1);
      if (!(await identifiers.signingKey(issuer))) throw invalidArgument('bitstringStatusIssuer must be a DID managed by this agent');

      let [taken] = await take(sql, issuer, purpose, length);
      if (!taken) {
        // No list with room: one process creates the next one while the others wait, then retry.
        taken = await sql.begin(async (tx) => {
          await tx`select pg_advisory_xact_lock(hashtext(${`${issuer}|${purpose}|${length}`}))`;
          const [again] = await take(tx, issuer, purpose, length);
          if (again) return again;
          const [next] = await tx<{ id: string }[]>`select nextval(pg_get_serial_sequence('vc_service.status_lists', 'id'))::text as id`;
          const id = next!.id;
          const bits = new Uint8Array(length / 8);
          const signed = await signList(id, issuer, purpose, bits);
          await tx`insert into vc_service.status_lists (id, issuer, purpose, length, next_index, bits, credential, etag)
            values (${id}, ${issuer}, ${purpose}, ${length}, 1, ${bits}, ${signed.text}, ${signed.etag})`;
          return { id, index: 0 };
        });
      }
      const url = urlOf(taken.id);
      return { id: `${url}#${taken.index}`, type: 'BitstringStatusListEntry', statusPurpose: purpose, statusListIndex: taken.index, statusListCredential: url };
    },

    async set(body: Record<string, unknown>): Promise<{ status: boolean }> {
      const url = requiredText(body, 'statusListCredential');
      const issuer = requiredText(body, 'statusListVCIssuer');
      const purpose = requiredText(body, 'statusPurpose');
      const index = integerField(body, 'index', -1, 0, MAX_LIST_LENGTH - 1);
      if (typeof body.status !== 'boolean') throw invalidArgument('status must be true or false');
      const status = body.status;
      const id = listIdOf(url);
      if (!id) throw notFoundError(`status list ${url} not found on this service`);
      await sql.begin(async (tx) => {
        const [list] = await tx<{ issuer: string; purpose: string; length: number; bits: Uint8Array }[]>`
          select issuer, purpose, length, bits from vc_service.status_lists where id = ${id} for update`;
        if (!list) throw notFoundError(`status list ${url} not found on this service`);
        if (list.issuer !== issuer) throw invalidArgument(`statusListVCIssuer: ${issuer} is not the issuer of this status list`);
        if (list.purpose !== purpose) throw invalidArgument(`statusPurpose: this status list's purpose is ${list.purpose}`);
        if (index >= list.length) throw invalidArgument(`index must be below the list length ${list.length}`);
        const bitstring = new Bitstring({ buffer: new Uint8Array(list.bits) });
        if (bitstring.get(index) === status) return;
        bitstring.set(index, status);
        const signed = await signList(id, issuer, purpose, bitstring.bits);
        await tx`update vc_service.status_lists set bits = ${bitstring.bits}, credential = ${signed.text}, etag = ${signed.etag}, updated_at = now()
          where id = ${id}`;
        await tx`select pg_notify(${CHANGED}, ${id})`;
      });
      bitsCache.delete(id);
      return { status };
    },

    /** The entry's bit on one of this service's lists; undefined when the list is not ours or the entry does not fit it. */
    async bitOf(entry: Record<string, unknown>): Promise<{ set: boolean; purpose: string } | undefined> {
      const id = typeof entry.statusListCredential === 'string' ? listIdOf(entry.statusListCredential) : undefined;
      const index = statusIndexOf(entry);
      if (!id || index === undefined) return undefined;
      const list = await cachedBits(id);
      const set = list && bitAt(list.bits, index);
      return set === undefined ? undefined : { set, purpose: list!.purpose };
    },

    /** The list credential as stored (the enveloped JSON), its compact JWS, and the stored form's ETag. */
    async published(id: string): Promise<{ text: string; jws: string; etag: string } | undefined> {
      if (!/^[1-9]\d{0,15}$/.test(id)) return undefined;
      const [row] = await sql<{ credential: string; etag: string }[]>`select credential, etag from vc_service.status_lists where id = ${id}`;
      if (!row) return undefined;
      const enveloped = JSON.parse(row.credential) as { id: string };
      return { text: row.credential, jws: enveloped.id.slice(enveloped.id.indexOf(',') + 1), etag: row.etag };
    },
  };
};

export type StatusLists = ReturnType<typeof createStatusLists>;

/**
 * `checkBitstringStatus` (contract C.5): `{ revoked }` (any entry's bit set), or a message when the
 * credential carries no status. Lists of other services are read from their URL and verified.
 */
export const checkStatus = async (readStatus: StatusReader, body: Record<string, unknown>) => {
  const credential = asObject(body.verifiableCredential, 'verifiableCredential');
  const status = credential.credentialStatus;
  if (status === undefined || status === null) {
    return { revoked: false, message: 'credentialStatus property was not set on the original credential' };
  }
  const entries = (Array.isArray(status) ? status : [status]) as unknown[];
  let revoked = false;
  const errors: { id: string; message: string }[] = [];
  for (const [i, raw] of entries.entries()) {
    const entry = asObject(raw, `verifiableCredential.credentialStatus${Array.isArray(status) ? `[${i}]` : ''}`);
    const bit = await readStatus(entry);
    if ('errorCode' in bit) errors.push({ id: String(entry.id ?? ''), message: `${bit.errorCode}: ${bit.message}` });
    // The entry's bit whatever the list's purpose (contract C.5 "reads the entry's bit"; VCkit's name for it is `revoked`).
    else if (bit.set) revoked = true;
  }
  return errors.length ? { revoked, errors } : { revoked };
};
