/** `links[0].hreflang[1]` style path of a validation issue (API messages and the seed file alike). */
export const issuePath = (path: PropertyKey[]): string =>
  path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
    '',
  );
