import { ConfigError } from '../core/errors.ts';
import type { ServiceAccount } from './local-idp.ts';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const DEFAULT_ACCOUNTS = 'local-service-account:local';

/**
 * LOCAL_SERVICE_ACCOUNTS=name:group,name:group — the service accounts `npm start` offers, each with
 * the group claim its tokens carry (its tenant in closed mode, and a tenant of its own in open
 * mode), so tenant isolation can be tried without code. Each secret is `<name>-secret`.
 */
export const readLocalServiceAccounts = (value: string | undefined): ServiceAccount[] => {
  const entries = (value?.trim() || DEFAULT_ACCOUNTS).split(',').map((entry) => entry.trim());
  const seen = new Set<string>();
  return entries.map((entry) => {
    const [name = '', group = '', ...rest] = entry.split(':');
    if (!NAME.test(name) || !NAME.test(group) || rest.length > 0) {
      throw new ConfigError(`LOCAL_SERVICE_ACCOUNTS: "${entry}" must be name:group (each 1 to 64 of A-Z, a-z, 0-9, "_" or "-")`);
    }
    if (seen.has(name)) throw new ConfigError(`LOCAL_SERVICE_ACCOUNTS: "${name}" is named twice`);
    seen.add(name);
    return { clientId: name, clientSecret: `${name}-secret`, groups: [group] };
  });
};
