/**
 * Compose's variable interpolation (`${NAME}`, `${NAME:-default}` with nested defaults, `${NAME-default}`,
 * `${NAME:?message}`, `$$` for `$`) over a set of variables, the way `docker compose` reads `.env`.
 */
export const interpolate = (text: string, vars: Record<string, string | undefined>): string => {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] !== '$') {
      out += text[i];
      continue;
    }
    if (text[i + 1] === '$') {
      out += '$';
      i += 1;
      continue;
    }
    if (text[i + 1] !== '{') {
      out += '$';
      continue;
    }
    // The matching brace, counting nested ${…}.
    let depth = 0;
    let end = i + 1;
    for (; end < text.length; end += 1) {
      if (text[end] === '{') depth += 1;
      else if (text[end] === '}' && --depth === 0) break;
    }
    const body = text.slice(i + 2, end);
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([\s\S]*))?$/.exec(body);
    if (!match) throw new Error(`compose: cannot read \${${body}}`);
    const [, name, operator, rest] = match;
    const value = vars[name!];
    const unset = operator?.startsWith(':') ? value === undefined || value === '' : value === undefined;
    if (operator?.endsWith('?') && unset) throw new Error(`compose: ${name} is required: ${rest}`);
    out += operator?.endsWith('-') && unset ? interpolate(rest!, vars) : (value ?? '');
    i = end;
  }
  return out;
};
