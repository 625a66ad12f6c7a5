/**
 * The two forms a status list credential is served in (W3C Bitstring Status List with VC-JOSE, and
 * VCkit's): the compact JWS as `application/vc+jwt`, and the `EnvelopedVerifiableCredential` JSON
 * wrapper as `application/json`.
 */
export type ListForm = 'jws' | 'enveloped';

const FORMS: { type: string; form: ListForm }[] = [
  { type: 'application/vc+jwt', form: 'jws' },
  { type: 'application/json', form: 'enveloped' },
];
export const LIST_MEDIA_TYPES = FORMS.map((f) => f.type);

/**
 * The form for a client that names neither type (`*\/*`, `application/*`, no `Accept`): the enveloped
 * JSON. VCkit 1.1 reads status lists with a bare `fetch` (`Accept: *\/*`) and parses the body as JSON only
 * when the answer says `application/json`; a compact JWS reaches it as text, which its status check
 * cannot verify, and it would report our credentials revoked. W3C Bitstring Status List clients ask for
 * `application/vc+jwt` by name.
 */
export const WILDCARD_FORM: ListForm = 'enveloped';

/**
 * The form an `Accept` header prefers (RFC 9110 media ranges with q-values; the most specific range
 * matching a type decides its q): the highest q wins; on a tie a type named exactly wins (the JWS
 * first), else the wildcard form. Undefined when the header accepts neither (406).
 */
export const preferredListForm = (accept: string | undefined): ListForm | undefined => {
  if (!accept || accept.trim() === '') return WILDCARD_FORM;
  const ranked = FORMS.flatMap(({ type, form }) => {
    let chosen: { q: number; specificity: number } | undefined;
    for (const range of accept.split(',')) {
      const [mediaRange = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
      const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
      const specificity = mediaRange === type ? 2 : mediaRange === `${type.split('/')[0]}/*` ? 1 : mediaRange === '*/*' ? 0 : -1;
      if (specificity >= 0 && !Number.isNaN(q) && (!chosen || specificity > chosen.specificity)) chosen = { q, specificity };
    }
    return chosen && chosen.q > 0 ? [{ form, ...chosen }] : [];
  });
  const top = Math.max(...ranked.map((r) => r.q));
  const best = ranked.filter((r) => r.q === top);
  if (best.length === 0) return undefined;
  return (best.find((r) => r.specificity === 2) ?? best.find((r) => r.form === WILDCARD_FORM) ?? best[0]!).form;
};
