/**
 * Whether a path is in a Docker build context under a .dockerignore: patterns in order, the last one that matches
 * the path or one of its parent folders decides; `!` admits again. `*` and `?` stay within a path segment, `**`
 * spans segments; a leading or trailing `/` is dropped (Docker cleans patterns the same way).
 */
export const dockerContext = (dockerignore: string) => {
  const rules = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const admit = line.startsWith('!');
      const pattern = (admit ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
      const source = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => (part.startsWith('**') ? '(?:.*/)?' + (part.endsWith('/') ? '' : '.*') : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return { admit, regex: new RegExp(`^${source}$`) };
    });
  /** The path and each folder above it: `a/b/c.ts` → `a`, `a/b`, `a/b/c.ts`. */
  const prefixes = (path: string) => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  return {
    includes: (path: string): boolean => {
      let included = true;
      for (const rule of rules) if (prefixes(path).some((p) => rule.regex.test(p))) included = rule.admit;
      return included;
    },
  };
};
