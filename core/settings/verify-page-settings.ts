import { ConfigError } from '../errors.ts';
import { readText, type EnvSource } from './env-readers.ts';

export interface VerifyPageSettings {
  /**
   * Origins (`https://images.example.com`) a credential's template may load images, styles and fonts from
   * on /verify, besides `data:` URLs. Empty by default: a template cannot make a verifier's browser contact
   * any host (a tracking pixel would report each verifier's address).
   */
  templateAssetHosts: string[];
}

/** VERIFY_TEMPLATE_ASSET_HOSTS: comma-separated http(s) origins (no path, query or credentials). */
export const readVerifyPageSettings = (env: EnvSource): VerifyPageSettings => {
  const raw = readText(env, 'VERIFY_TEMPLATE_ASSET_HOSTS');
  const templateAssetHosts = (raw ?? '').split(',').map((h) => h.trim()).filter(Boolean).map((host) => {
    let url: URL;
    try {
      url = new URL(host);
    } catch {
      throw new ConfigError(`VERIFY_TEMPLATE_ASSET_HOSTS: ${host} is not an origin such as https://images.example.com`);
    }
    if (!/^https?:$/.test(url.protocol) || url.username || url.password || `${url.origin}` !== host.replace(/\/$/, '')) {
      throw new ConfigError(`VERIFY_TEMPLATE_ASSET_HOSTS: ${host} is not an origin such as https://images.example.com`);
    }
    return url.origin;
  });
  return { templateAssetHosts: [...new Set(templateAssetHosts)] };
};
