// What the page verifies, read from its address: the direct parameters `uri`, `digestMultibase`, `hash`
// and `decryptionKey` (or `key`), else the legacy `q={"payload":{…}}`. A direct parameter wins over the
// legacy payload, and `decryptionKey` wins over `key`.

const KEY_NAMES = ['decryptionKey', 'key'];

const legacyPayload = (params) => {
  const q = params.get('q');
  if (q === null) return { payload: {} };
  try {
    const parsed = JSON.parse(q);
    const payload = parsed && typeof parsed === 'object' ? parsed.payload : undefined;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return { payload };
  } catch {
    // reported below
  }
  return { payload: {}, problem: 'The link is damaged: its q parameter is not of the form {"payload":{…}}.' };
};

const firstText = (...values) => values.find((v) => typeof v === 'string' && v.trim() !== '')?.trim();

/** `{ request: { uri?, digestMultibase?, hash?, decryptionKey? }, problem? }` from a query string. */
export const readRequest = (search) => {
  const params = new URLSearchParams(search);
  const { payload, problem } = legacyPayload(params);
  const request = {
    uri: firstText(params.get('uri'), payload.uri),
    digestMultibase: firstText(params.get('digestMultibase'), payload.digestMultibase),
    hash: firstText(params.get('hash'), payload.hash),
    decryptionKey: firstText(params.get('decryptionKey'), params.get('key'), payload.decryptionKey, payload.key),
  };
  return { request, problem };
};

/**
 * The address without any decryption key (direct or inside `q`), or null when it holds none. The page
 * replaces its history entry with it so that the key does not stay in the address bar, history or bookmarks.
 */
export const addressWithoutKey = (href) => {
  const url = new URL(href);
  let changed = false;
  for (const name of KEY_NAMES) {
    if (url.searchParams.has(name)) {
      url.searchParams.delete(name);
      changed = true;
    }
  }
  const q = url.searchParams.get('q');
  if (q !== null) {
    try {
      const parsed = JSON.parse(q);
      const payload = parsed?.payload;
      if (payload && typeof payload === 'object' && KEY_NAMES.some((name) => name in payload)) {
        for (const name of KEY_NAMES) delete payload[name];
        url.searchParams.set('q', JSON.stringify(parsed));
        changed = true;
      }
    } catch {
      // an unreadable q carries no key we could take out
    }
  }
  return changed ? url.toString() : null;
};
