import ipaddr from 'ipaddr.js';
import { badRequest } from '../errors.ts';
import { isPublicAddress } from '../service-kit/public-address.ts';

export { isPublicAddress };

/** Special-use names (RFC 6761, 6762, 8375) that never name a public host. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)\.?$/i;

/**
 * Why a URL is not an acceptable outbound target, or undefined when it is: absolute http(s),
 * no userinfo, and (unless private URLs are allowed) no special-purpose IP literal or local name.
 * DNS answers are checked again at fetch time by the guarded fetcher.
 */
export const publicUrlProblem = (raw: string, allowPrivate: boolean): string | undefined => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  return parsedUrlProblem(url, allowPrivate);
};

/** publicUrlProblem of a URL already parsed (the guarded fetcher's hops). */
export const parsedUrlProblem = (url: URL, allowPrivate: boolean): string | undefined => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain a username or password';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    return isPublicAddress(host) ? undefined : 'must not point to a private or reserved address';
  }
  if (LOCAL_NAME.test(host)) return 'must not point to a local host name';
  return undefined;
};

/** Throws a 400 naming the field when the URL is not an acceptable public http(s) URL. */
export const assertPublicUrl = (field: string, raw: string, allowPrivate: boolean): void => {
  const problem = publicUrlProblem(raw, allowPrivate);
  if (problem) throw badRequest(`${field}: ${problem}`);
};
