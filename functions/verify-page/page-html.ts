/**
 * The page's markup: static, no inline script or style (the CSP forbids both for the page itself).
 * Every region the scripts fill starts hidden; results are announced through the live region.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Verify a credential</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/verify/style.css">
  <script type="module" src="/verify/app.js"></script>
</head>
<body>
  <a class="skip-link" href="#main">Skip to the verification result</a>
  <header class="site-header">
    <p class="site-name">Credential Support Service</p>
  </header>
  <main id="main" tabindex="-1">
    <h1>Verify a credential</h1>
    <noscript><p class="notice notice-bad">This page needs JavaScript to check a credential.</p></noscript>

    <p id="status" class="status" role="status" aria-live="polite"></p>

    <section id="lookup" class="panel" aria-labelledby="lookup-title" hidden>
      <h2 id="lookup-title">Check a credential link</h2>
      <form id="lookup-form" novalidate>
        <label for="lookup-uri">Credential link (URL)</label>
        <input id="lookup-uri" name="uri" type="url" inputmode="url" autocomplete="off" spellcheck="false" aria-describedby="lookup-error" required>
        <p id="lookup-error" class="field-error" hidden></p>
        <button type="submit">Verify</button>
      </form>
    </section>

    <section id="key-prompt" class="panel" aria-labelledby="key-title" hidden>
      <h2 id="key-title">This credential is encrypted</h2>
      <p id="key-help">Enter the decryption key you were given with the credential (64 hexadecimal characters).
        The key is used for this check only: it is not saved, and it is not added to the address.</p>
      <form id="key-form" novalidate autocomplete="off">
        <label for="key-input">Decryption key</label>
        <input id="key-input" name="decryption-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="key-help key-error" required>
        <p id="key-error" class="field-error" role="alert" hidden></p>
        <button type="submit">Decrypt and verify</button>
      </form>
    </section>

    <section id="result" class="panel" aria-labelledby="result-title" hidden>
      <h2 id="result-title" tabindex="-1"></h2>
      <p id="result-reason"></p>
      <ul id="result-warnings" class="warnings" aria-label="Warnings" hidden></ul>
      <div class="result-layout">
        <div class="result-view">
          <div id="method-choice" class="method-choice" hidden>
            <label for="method-select">Template</label>
            <select id="method-select"></select>
          </div>
          <p id="render-note" class="note" hidden></p>
          <iframe id="rendered" class="rendered" title="The credential, rendered by its template" sandbox referrerpolicy="no-referrer" hidden></iframe>
          <pre id="json" class="json" tabindex="0" aria-label="The credential as JSON" hidden></pre>
        </div>
        <div class="result-facts">
          <h3 id="facts-title" class="facts-title">About this credential</h3>
          <dl id="summary" class="summary"></dl>
          <div class="view-switch" role="group" aria-label="How to show the credential">
            <button type="button" id="show-rendered" aria-pressed="true" aria-controls="rendered">Rendered</button>
            <button type="button" id="show-json" aria-pressed="false" aria-controls="json">JSON</button>
            <button type="button" id="download">Download JSON</button>
          </div>
        </div>
      </div>
    </section>
  </main>
  <footer class="site-footer">
    <p>Verification checks the issuer's signature, the credential's validity period and its status.</p>
  </footer>
</body>
</html>
`;
