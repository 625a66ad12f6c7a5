/**
 * The explorer's own script and stylesheet, served beside Swagger UI's files (no inline script or style:
 * the page's policy allows scripts from this origin only).
 */

/**
 * Starts Swagger UI on the document beside this script. `validatorUrl: null`: by default Swagger UI sends the
 * document to an outside validator, and nothing may leave this origin. `deepLinking` stays off: it puts a link
 * inside each operation's toggle button (nested interactive controls). The server list gets the accessible
 * name Swagger UI leaves out.
 */
export const START_SCRIPT = `'use strict';
window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.currentScript.src).href,
  dom_id: '#swagger-ui',
  deepLinking: false,
  displayOperationId: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
new MutationObserver(() => {
  const servers = document.querySelector('select#servers:not([aria-label])');
  if (servers) servers.setAttribute('aria-label', 'Server');
}).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });
`;

/**
 * Swagger UI's light colours behind or under white or grey text fall short of WCAG AA contrast (4.5:1); these
 * darker shades of the same hues reach it. Examples wrap instead of scrolling (a scrolling box that holds
 * nothing focusable cannot be scrolled from the keyboard).
 */
export const PAGE_STYLE = `.swagger-ui .info .title small { background: #4f5560; }
.swagger-ui .info .title small.version-stamp { background: #3d6b00; }
.swagger-ui .info a.link .url, .swagger-ui .info .url { color: #1f5fa8; }
.swagger-ui .btn.authorize { color: #146c43; border-color: #146c43; }
.swagger-ui .btn.authorize svg { fill: #146c43; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f5fa8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #146c43; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8a4b00; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b01c1c; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0e6655; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #505050; }
.swagger-ui .highlight-code > .microlight { overflow: visible; max-height: none; white-space: pre-wrap; overflow-wrap: anywhere; }
`;
