import { describe, expect, it } from 'vitest';
import { readSystemServices } from '../settings/system-services.ts';
import { refusedSystemServices, refusedSystemServicesWarning } from './private-system-services.ts';

describe('system services the guarded fetcher will refuse', () => {
  it('names each system service on a private, loopback or local address while private URLs are not allowed', () => {
    const services = readSystemServices({ SYSTEM_IDR_BASE_URL: 'https://idr.example.com', SYSTEM_VC_BASE_URL: 'http://10.0.0.7:3332' });
    const refused = refusedSystemServices(services, false);
    expect(refused).toEqual(['System Default VC (VC, http://10.0.0.7:3332)', 'System Default Storage (STORAGE, http://localhost:3334)']);
    expect(refusedSystemServicesWarning(refused)).toMatch(/^FETCH_ALLOW_PRIVATE_URLS is not "true".*System Default Storage/);
  });

  it('names none when private URLs are allowed or every URL is public', () => {
    expect(refusedSystemServices(readSystemServices({}), true)).toEqual([]);
    const publicOnly = readSystemServices({
      SYSTEM_IDR_BASE_URL: 'https://idr.example.com',
      SYSTEM_VC_BASE_URL: 'https://vc.example.com',
      SYSTEM_STORAGE_BASE_URL: 'https://storage.example.com',
    });
    expect(refusedSystemServices(publicOnly, false)).toEqual([]);
  });
});
