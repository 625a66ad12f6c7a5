// The /verify page: reads what to verify from the address, calls the public verify API, asks for a key
// when the credential is encrypted (kept in this module's memory only), and shows the result.
import { failureMessage, notVerifiedReason } from './messages.js';
import { addressWithoutKey, readRequest } from './params.js';
import { frameDocument, loadTemplate, methodLabel, usableMethods } from './render.js';
import { summaryRows } from './summary.js';

const VERIFY_API = '/api/v1/credentials/verify';
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const $ = (id) => document.getElementById(id);

/** The credential last shown (for the download button) and the request last sent, without its key (for a retry with one). */
let shown;
let pending;

const setStatus = (text, tone) => {
  const status = $('status');
  status.textContent = text;
  status.className = `status${tone ? ` status-${tone}` : ''}`;
};

const hideAll = () => {
  for (const id of ['lookup', 'key-prompt', 'result']) $(id).hidden = true;
};

const showFieldError = (inputId, errorId, message) => {
  const error = $(errorId);
  error.textContent = message ?? '';
  error.hidden = !message;
  $(inputId).setAttribute('aria-invalid', message ? 'true' : 'false');
};

const askForKey = (problem) => {
  hideAll();
  $('key-prompt').hidden = false;
  // A problem with the key is said once, under the field (an alert, so it is announced).
  showFieldError('key-input', 'key-error', problem);
  setStatus(problem ? '' : 'This credential is encrypted: enter its decryption key to check it.');
  $('key-input').focus();
};

const showLookup = (problem, uri) => {
  hideAll();
  $('lookup').hidden = false;
  if (uri) $('lookup-uri').value = uri;
  setStatus(problem ?? '', problem ? 'bad' : undefined);
};

/** 'rendered', 'json', or 'none' (a credential that failed: its data stays behind the JSON button). */
const setView = (view) => {
  $('rendered').hidden = view !== 'rendered';
  $('json').hidden = view !== 'json';
  $('show-rendered').setAttribute('aria-pressed', String(view === 'rendered'));
  $('show-json').setAttribute('aria-pressed', String(view === 'json'));
};

const fillSummary = (credential, verified) => {
  const list = $('summary');
  list.replaceChildren();
  for (const [label, value] of summaryRows(credential, verified)) {
    const term = document.createElement('dt');
    term.textContent = label;
    const detail = document.createElement('dd');
    detail.textContent = value;
    list.append(term, detail);
  }
};

const fillWarnings = (warnings) => {
  const list = $('result-warnings');
  list.replaceChildren();
  for (const warning of Array.isArray(warnings) ? warnings : []) {
    const item = document.createElement('li');
    item.textContent = String(warning);
    list.append(item);
  }
  list.hidden = list.childElementCount === 0;
};

/** Renders the credential with one of its render methods, or says why its data is shown instead. */
const renderWith = async (method, credential) => {
  const note = $('render-note');
  const loaded = method ? await loadTemplate(method) : { problem: 'This credential has no template of its own, so its data is shown.' };
  const frame = loaded.template !== undefined ? frameDocument(loaded.template, credential) : loaded;
  $('show-rendered').hidden = frame.html === undefined;
  if (frame.html !== undefined) {
    $('rendered').srcdoc = frame.html;
    note.hidden = true;
    setView('rendered');
  } else {
    $('rendered').removeAttribute('srcdoc');
    note.textContent = frame.problem;
    note.hidden = false;
    setView('json');
  }
};

const fillMethodChoice = (methods, credential) => {
  const select = $('method-select');
  select.replaceChildren(...methods.map((method, index) => {
    const option = document.createElement('option');
    option.value = String(index);
    option.textContent = methodLabel(method, index);
    return option;
  }));
  select.onchange = () => void renderWith(methods[Number(select.value)], credential);
  $('method-choice').hidden = methods.length < 2;
};

const showResult = async (result) => {
  const decoded = result.decodedCredential && typeof result.decodedCredential === 'object' ? result.decodedCredential : undefined;
  const verified = result.verified === true;
  shown = result.credential ?? decoded;
  hideAll();
  const section = $('result');
  section.hidden = false;
  section.dataset.verified = String(verified);
  $('result-title').textContent = verified ? 'Verified' : 'Not verified';
  $('result-reason').textContent = verified
    ? 'The issuer’s signature is valid and the credential passed every check that could be run (see any warnings below).'
    : notVerifiedReason(result.error);
  fillWarnings(result.warnings);
  $('json').textContent = JSON.stringify(decoded ?? result.credential ?? null, null, 2);

  if (verified) {
    // Only a verified credential is rendered through its issuer's template.
    fillSummary(decoded, true);
    $('facts-title').hidden = false;
    $('summary').hidden = false;
    const methods = usableMethods(decoded);
    fillMethodChoice(methods, decoded);
    await renderWith(methods[0], decoded);
  } else {
    // Nothing of the issuer's (template, style, image, claimed facts): the reason, and the raw data one click away.
    $('summary').hidden = true;
    $('facts-title').hidden = true;
    $('method-choice').hidden = true;
    $('show-rendered').hidden = true;
    $('rendered').removeAttribute('srcdoc');
    $('render-note').hidden = true;
    setView('none');
  }
  setStatus(verified ? 'The credential is verified.' : 'The credential is NOT verified.', verified ? 'good' : 'bad');
  $('result-title').focus();
};

const bodyOf = (request) => Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));

const verify = async (request) => {
  // The key lives only in this call's `request`: nothing outlives the request that used it.
  pending = { ...request, decryptionKey: undefined };
  hideAll();
  setStatus('Checking the credential…');
  $('main').setAttribute('aria-busy', 'true');
  let response;
  let body = null;
  try {
    response = await fetch(VERIFY_API, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(bodyOf(request)),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
    body = await response.json().catch(() => null);
  } catch {
    response = undefined;
  } finally {
    $('main').removeAttribute('aria-busy');
  }
  if (response?.ok && body && typeof body.verified === 'boolean') return showResult(body);

  const status = response?.status ?? 0;
  const code = typeof body?.code === 'string' ? body.code : undefined;
  if (code === 'DECRYPTION_REQUIRED') return askForKey();
  if (code === 'DECRYPTION_FAILED') return askForKey(failureMessage({ status, code }));
  const message = failureMessage({ status, code, error: typeof body?.error === 'string' ? body.error : undefined, retryAfter: response?.headers.get('retry-after') });
  if (status === 400 && /^decryptionKey\b/.test(body?.error ?? '')) return askForKey(message);
  // Any other failure: say why, and offer the form (holding the link) to check again or another one.
  showLookup(message, request.uri);
};

const onKeySubmit = (event) => {
  event.preventDefault();
  const input = $('key-input');
  const key = input.value.trim();
  if (!HEX_KEY.test(key)) {
    showFieldError('key-input', 'key-error', 'The key is 64 hexadecimal characters (0–9, a–f).');
    input.focus();
    return;
  }
  input.value = '';
  showFieldError('key-input', 'key-error');
  void verify({ ...pending, decryptionKey: key });
};

const onLookupSubmit = (event) => {
  event.preventDefault();
  const uri = $('lookup-uri').value.trim();
  if (!/^https?:\/\/\S+$/i.test(uri)) {
    showFieldError('lookup-uri', 'lookup-error', 'Enter the credential’s web address, starting with https://');
    $('lookup-uri').focus();
    return;
  }
  showFieldError('lookup-uri', 'lookup-error');
  void verify({ uri });
};

const download = () => {
  if (shown === undefined) return;
  const url = URL.createObjectURL(new Blob([JSON.stringify(shown, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'credential.json';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

const start = () => {
  $('key-form').addEventListener('submit', onKeySubmit);
  $('lookup-form').addEventListener('submit', onLookupSubmit);
  $('show-rendered').addEventListener('click', () => setView('rendered'));
  $('show-json').addEventListener('click', () => setView($('json').hidden ? 'json' : $('rendered').hasAttribute('srcdoc') ? 'rendered' : 'none'));
  $('download').addEventListener('click', download);

  const { request, problem } = readRequest(location.search);
  const clean = addressWithoutKey(location.href);
  if (clean) history.replaceState(history.state, '', clean);
  if (problem || !request.uri) return showLookup(problem);
  void verify(request);
};

start();
