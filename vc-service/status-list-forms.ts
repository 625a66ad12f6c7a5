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
 * The form an `Accept` header prefers (RFC 9110 media ranges with q-values): `application/vc+jwt`,
 * `*\/*`, `application/*` or no header gets the JWS; `application/json` the enveloped form; equal
 * preference goes to the JWS. Undefined when the header accepts neither (406).
 */
export const preferredListForm = (accept: string | undefined): ListForm | undefined => {
  if (!accept || accept.trim() === '') return 'jws';
  let best: { form: ListForm; q: number; specificity: number } | undefined;
  for (const { type, form } of FORMS) {
    let chosen: { q: number; specificity: number } | undefined;
    for (const range of accept.split(',')) {
      const [mediaRange = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
      const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
      const specificity = mediaRange === type ? 2 : mediaRange === `${type.split('/')[0]}/*` ? 1 : mediaRange === '*/*' ? 0 : -1;
      // The most specific range that matches a type decides its q (RFC 9110 §12.5.1).
      if (specificity >= 0 && !Number.isNaN(q) && (!chosen || specificity > chosen.specificity)) chosen = { q, specificity };
    }
    if (chosen && chosen.q > 0 && (!best || chosen.q > best.q)) best = { form, ...chosen };
  }
  return best?.form;
};
