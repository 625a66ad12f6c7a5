import { afterEach, describe, expect, it, vi } from 'vitest';
import { SecretBox } from './secret-box.ts';

const KEY = '11'.repeat(32);
const config = { baseUrl: 'https://vc.example.com', apiKey: 'secret-key-123', headers: { 'x-tenant': 'a' } };

afterEach(() => vi.restoreAllMocks());

describe('SecretBox.openConfig', () => {
  it('opens a sealed config to what was sealed, decrypting a given sealed text once', async () => {
    const box = new SecretBox(KEY);
    const sealed = await box.encryptJson(config);
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
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
