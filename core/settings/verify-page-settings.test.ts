import { describe, expect, it } from 'vitest';
import { readVerifyPageSettings } from './verify-page-settings.ts';

describe('VERIFY_TEMPLATE_ASSET_HOSTS', () => {
  it('is empty by default, and reads a comma-separated list of origins (trailing slash tolerated, duplicates once)', () => {
    expect(readVerifyPageSettings({})).toEqual({ templateAssetHosts: [] });
    expect(readVerifyPageSettings({ VERIFY_TEMPLATE_ASSET_HOSTS: ' https://img.example.com, https://cdn.example.org:8443/ ,https://img.example.com' }))
      .toEqual({ templateAssetHosts: ['https://img.example.com', 'https://cdn.example.org:8443'] });
  });

  it('refuses anything that is not an http(s) origin, naming the setting', () => {
    for (const bad of ['img.example.com', 'https://img.example.com/images', 'ftp://img.example.com', 'https://u:p@img.example.com', "https://a.example.com; script-src 'unsafe-inline'", '*']) {
      expect(() => readVerifyPageSettings({ VERIFY_TEMPLATE_ASSET_HOSTS: bad }), bad).toThrow(/VERIFY_TEMPLATE_ASSET_HOSTS/);
    }
  });
});
