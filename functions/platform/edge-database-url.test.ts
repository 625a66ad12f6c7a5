import { describe, expect, it } from 'vitest';
import { edgeDatabaseUrl } from './edge-function.ts';

const direct = 'postgres://app@db.example.com:5432/credentials';
const pooled = 'postgres://user:secret@hyperdrive.local:5432/credentials';

describe('edgeDatabaseUrl', () => {
  it('uses the Hyperdrive binding when the environment has one', () => {
    const env = { RI_DATABASE_URL: direct, HYPERDRIVE: { connectionString: pooled } } as never;
    expect(edgeDatabaseUrl(env)).toBe(pooled);
  });

  it('falls back to the direct RI_DATABASE_URL without a binding', () => {
    expect(edgeDatabaseUrl({ RI_DATABASE_URL: direct })).toBe(direct);
  });

  it('falls back to the RI_POSTGRES_* parts without a binding or a URL', () => {
    expect(edgeDatabaseUrl({ RI_POSTGRES_HOST: 'db.example.com', RI_POSTGRES_DB: 'credentials' })).toBe(
      'postgres://postgres@db.example.com:5432/credentials',
    );
  });

  it('ignores a binding without a connection string', () => {
    expect(edgeDatabaseUrl({ RI_DATABASE_URL: direct, HYPERDRIVE: {} } as never)).toBe(direct);
  });
});
