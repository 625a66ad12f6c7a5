import { badRequest } from '../errors.ts';
import { matchesPattern } from '../schemes/patterns.ts';

interface Qualifier {
  key: string;
  validationPattern: string;
  order: number;
}

const byOrder = (a: Qualifier, b: Qualifier) => a.order - b.order || a.key.localeCompare(b.key);

/**
 * A publish's qualifier path checked against its scheme and put in the scheme's order, so
 * `/21/S/10/L` and `/10/L/21/S` address one resolver document. Keys must be the scheme's qualifier
 * keys (each once), values must match their patterns, and keys must be numeric: the resolver 4.0.0
 * lists a document's links only under numeric qualifier keys, and a link we cannot list back we
 * could neither record nor remove. The path's shape (`/` or `/key/value` pairs) is checked by the route.
 */
export const normaliseQualifierPath = async (path: string, qualifiers: Qualifier[]): Promise<string> => {
  if (path === '/') return '/';
  const segments = path.split('/').slice(1);
  const pairs: { qualifier: Qualifier; value: string }[] = [];
  for (let i = 0; i < segments.length; i += 2) {
    const [key, value] = [segments[i]!, segments[i + 1]!];
    const qualifier = qualifiers.find((q) => q.key === key);
    if (!qualifier) {
      const keys = [...qualifiers].sort(byOrder).map((q) => q.key).join(', ') || 'none';
      throw badRequest(`qualifierPath: '${key}' is not a qualifier key of the scheme (its keys: ${keys})`);
    }
    if (pairs.some((p) => p.qualifier.key === key)) throw badRequest(`qualifierPath: qualifier key '${key}' is given twice`);
    if (!/^\d+$/.test(key)) throw badRequest(`qualifierPath: '${key}' is not numeric; the identity resolver 4.0.0 only lists links under numeric qualifier keys`);
    if (!(await matchesPattern(qualifier.validationPattern, value))) {
      throw badRequest(`qualifierPath: value '${value}' of '${key}' must match the qualifier's validationPattern ${qualifier.validationPattern}`);
    }
    pairs.push({ qualifier, value });
  }
  pairs.sort((a, b) => byOrder(a.qualifier, b.qualifier));
  return pairs.map((p) => `/${p.qualifier.key}/${p.value}`).join('');
};
