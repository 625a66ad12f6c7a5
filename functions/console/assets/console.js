// The console's own behaviour beyond htmx: copy buttons. Loaded with the page's nonce; no inline script anywhere.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  const status = document.getElementById(`${button.getAttribute('data-copy')}-status`);
  navigator.clipboard.writeText(source.textContent.trim()).then(
    () => { if (status) status.textContent = 'Copied to the clipboard'; },
    () => { if (status) status.textContent = 'Copy failed: select the text and copy it'; },
  );
});
