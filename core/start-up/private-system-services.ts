import { publicUrlProblem } from '../net/public-url.ts';
import type { SystemServiceDefinition } from '../settings/system-services.ts';

/**
 * System services whose base URL the guarded fetcher will refuse (a private, loopback or local
 * address while FETCH_ALLOW_PRIVATE_URLS is not `true`): render templates, links and issuance
 * through them would fail with 502, so the web process says so once at start-up.
 */
export const refusedSystemServices = (services: SystemServiceDefinition[], allowPrivateUrls: boolean): string[] =>
  services
    .filter((service) => publicUrlProblem(String(service.config.baseUrl), allowPrivateUrls) !== undefined)
    .map((service) => `${service.name} (${service.serviceType}, ${String(service.config.baseUrl)})`);

export const refusedSystemServicesWarning = (refused: string[]): string =>
  `FETCH_ALLOW_PRIVATE_URLS is not "true", so calls to these system services on private or loopback addresses will be refused (502): ${refused.join('; ')}`;
