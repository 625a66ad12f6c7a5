import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalServiceAccounts } from '../scripts/local-accounts.ts';
import { startLocalIdp, type LocalIdp } from '../scripts/local-idp.ts';

describe('LOCAL_SERVICE_ACCOUNTS', () => {
  it('offers one account in group "local" when unset, else each name:group with the secret <name>-secret', () => {
    expect(readLocalServiceAccounts(undefined)).toEqual([
      { clientId: 'local-service-account', clientSecret: 'local-service-account-secret', groups: ['local'] },
    ]);
    expect(readLocalServiceAccounts('acme:acme, globex:globex')).toEqual([
      { clientId: 'acme', clientSecret: 'acme-secret', groups: ['acme'] },
      { clientId: 'globex', clientSecret: 'globex-secret', groups: ['globex'] },
    ]);
  });

  it.each(['acme', 'acme:', ':acme', 'a b:c', 'a:b:c', 'acme:x,acme:y'])('refuses %j naming the setting', (value) => {
    expect(() => readLocalServiceAccounts(value)).toThrow(/^LOCAL_SERVICE_ACCOUNTS: /);
  });
});

describe('local identity provider with several service accounts', () => {
  const audience = 'credential-support-service';
  let idp: LocalIdp;
  beforeAll(async () => {
    idp = await startLocalIdp({
      audience,
      appClient: { clientId: 'web', clientSecret: 'web-secret', redirectUris: ['http://127.0.0.1:1/auth/callback'] },
      serviceAccounts: readLocalServiceAccounts('acme:acme,globex:globex'),
    });
  });
  afterAll(async () => {
    await idp?.close();
  });

  it('issues each account a token for the API audience carrying its group', async () => {
    for (const name of ['acme', 'globex']) {
      const claims = decodeJwt(await idp.clientCredentialsToken(name, `${name}-secret`));
      expect(claims).toMatchObject({ aud: audience, groups: [name], sub: name });
    }
  });

  it('accepts the audience name itself as `resource` (what the README shows)', async () => {
    const claims = decodeJwt(await idp.clientCredentialsToken('acme', 'acme-secret', audience));
    expect(claims).toMatchObject({ aud: audience, groups: ['acme'] });
  });

  it('still refuses a wrong secret', async () => {
    await expect(idp.clientCredentialsToken('acme', 'nope')).rejects.toThrow(/refused/);
  });
});
