import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataKeyId, SecretBox, sealedKeyId } from './secret-box.ts';

const KEY = '11'.repeat(32);
const config = { baseUrl: 'https://vc.example.com', apiKey: 'secret-key-123', headers: { 'x-tenant': 'a' } };

afterEach(() => vi.restoreAllMocks());

describe('SecretBox.openConfig', () => {
  it('opens a sealed config to what was sealed, decrypting a given sealed text once', async () => {
    const box = new SecretBox(KEY);
    const sealed = await box.encryptJson(config);
    const decrypt = vi.spyOn(box, 'decrypt');
    expect(await box.openConfig(sealed)).toEqual(config);
    expect(await box.openConfig(sealed)).toEqual(config);
    expect(await box.openConfig(sealed)).toBe(await box.openConfig(sealed));
    expect(decrypt).toHaveBeenCalledTimes(1);
  });

  it('opens a config sealed anew (a changed config) to its new value', async () => {
    const box = new SecretBox(KEY);
    const first = await box.encryptJson(config);
    expect(await box.openConfig(first)).toEqual(config);
    const changed = { ...config, apiKey: 'rotated-key-456' };
    const second = await box.encryptJson(changed);
    expect(second).not.toBe(first);
    expect(await box.openConfig(second)).toEqual(changed);
    expect(await box.openConfig(first)).toEqual(config);
  });

  it('hands out a frozen config, so no caller can change what the next one gets', async () => {
    const box = new SecretBox(KEY);
    const opened = (await box.openConfig(await box.encryptJson(config))) as typeof config;
    expect(() => {
      (opened as { apiKey: string }).apiKey = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (opened.headers as Record<string, string>)['x-tenant'] = 'b';
    }).toThrow(TypeError);
  });

  it('refuses a config sealed under another key, every time (a refusal is not remembered as a value)', async () => {
    const sealed = await new SecretBox('22'.repeat(32)).encryptJson(config);
    const box = new SecretBox(KEY);
    await expect(box.openConfig(sealed)).rejects.toThrow();
    await expect(box.openConfig(sealed)).rejects.toThrow();
  });

  it('keeps each box to its own key: a config opened by one box is not handed out by another', async () => {
    const owner = new SecretBox(KEY);
    const sealed = await owner.encryptJson(config);
    expect(await owner.openConfig(sealed)).toEqual(config);
    await expect(new SecretBox('33'.repeat(32)).openConfig(sealed)).rejects.toThrow();
  });
});

describe('SecretBox key rotation', () => {
  const OLD = '44'.repeat(32);
  const NEW = '55'.repeat(32);
  /** A value in the format written before key ids (`v1.<iv>.<body>`): a v2 value without its key id. */
  const legacyOf = (sealed: string) => `v1.${sealed.split('.').slice(2).join('.')}`;

  it('names the sealing key in every value, by a digest that differs per key and is not the key', async () => {
    const sealed = await new SecretBox(NEW).encrypt('plain');
    const [format, keyId] = sealed.split('.');
    expect(format).toBe('v2');
    expect(keyId).toBe(await dataKeyId(NEW));
    expect(sealedKeyId(sealed)).toBe(keyId);
    expect(await dataKeyId(OLD)).not.toBe(keyId);
    expect(NEW).not.toContain(keyId!);
  });

  it('during a rotation seals with the current key and opens values of either key', async () => {
    const old = await new SecretBox(OLD).encrypt('under old');
    const rotating = new SecretBox(NEW, OLD);
    expect(await rotating.decrypt(old)).toBe('under old');
    const fresh = await rotating.encrypt('under new');
    expect(sealedKeyId(fresh)).toBe(await dataKeyId(NEW));
    expect(await new SecretBox(NEW).decrypt(fresh)).toBe('under new');
    await expect(new SecretBox(OLD).decrypt(fresh)).rejects.toThrow();
  });

  it('chooses the key by its id without trying the other: a value naming an unknown key is refused as such', async () => {
    const foreign = await new SecretBox('66'.repeat(32)).encrypt('x');
    // Either cipher the box may use (aes-gcm.ts): Node's own, or WebCrypto's.
    const runtimeDecipher = vi.spyOn(process.getBuiltinModule('node:crypto'), 'createDecipheriv');
    const webDecrypt = vi.spyOn(crypto.subtle, 'decrypt');
    await expect(new SecretBox(NEW, OLD).decrypt(foreign)).rejects.toThrow(/key this process does not hold/);
    expect(runtimeDecipher).not.toHaveBeenCalled();
    expect(webDecrypt).not.toHaveBeenCalled();
    // The same spy sees an opening with a key the box holds.
    await new SecretBox(NEW, OLD).decrypt(await new SecretBox(OLD).encrypt('y'));
    expect(runtimeDecipher.mock.calls.length + webDecrypt.mock.calls.length).toBe(1);
  });

  it('opens a legacy value (no key id) with the current key, or with the previous one during a rotation', async () => {
    const legacyNew = legacyOf(await new SecretBox(NEW).encrypt('legacy new'));
    const legacyOld = legacyOf(await new SecretBox(OLD).encrypt('legacy old'));
    expect(sealedKeyId(legacyOld)).toBe('legacy');
    expect(await new SecretBox(NEW).decrypt(legacyNew)).toBe('legacy new');
    expect(await new SecretBox(NEW, OLD).decrypt(legacyOld)).toBe('legacy old');
    await expect(new SecretBox(NEW).decrypt(legacyOld)).rejects.toThrow();
  });

  it('refuses a tampered value and text that is not a sealed value', async () => {
    const sealed = await new SecretBox(NEW).encrypt('plain');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(new SecretBox(NEW).decrypt(tampered)).rejects.toThrow();
    await expect(new SecretBox(NEW).decrypt('v3.a.b.c')).rejects.toThrow(/Unrecognised/);
    expect(sealedKeyId('plain text')).toBe('unreadable');
  });
});
