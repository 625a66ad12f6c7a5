import { XSS_MARKER } from './browser-rig.ts';

/** Each payload runs `fire(n)` if it ever executes: a console line with the marker, and a dialog. */
const fire = (n: number) => `console.log('${XSS_MARKER} ${n}');alert('${XSS_MARKER} ${n}')`;
const fireB64 = (n: number) => Buffer.from(`<script>${fire(n)}</script>`).toString('base64');

/** Payloads placed in credential fields (shown in the page's summary and substituted into a template). */
export const FIELD_PAYLOADS: string[] = [
  `<script>${fire(1)}</script>`,
  `<img src=x onerror="${fire(2)}">`,
  `<svg onload="${fire(3)}"></svg>`,
  `javascript:${fire(4)}`,
  `"><script>${fire(5)}</script>`,
  `' onmouseover='${fire(6)}' x='`,
  `</style><script>${fire(7)}</script><style>`,
  `{{constructor.constructor('${fire(8).replace(/'/g, '\\x27')}')()}}`,
  `<iframe srcdoc="<script>${fire(9)}</script>"></iframe>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${fire(10)}">`,
  `\`; ${fire(11)}; \``,
  `</textarea></title><img src=x onerror=${fire(12)}>`,
  `data:text/html;base64,${fireB64(13)}`,
];

/** Template markup around the fields: they land in text, in attributes and in URLs. */
export const FIELD_TEMPLATE = [
  '<h1 id="card-title">{{credentialSubject.name}}</h1>',
  ...FIELD_PAYLOADS.map((_, i) => `<p class="field" data-i="${i}" title="{{credentialSubject.p${i}}}">{{credentialSubject.p${i}}}</p>`),
  '<a id="link" href="{{credentialSubject.p3}}">link</a>',
  '<img id="pic" alt="{{credentialSubject.p0}}" src="{{credentialSubject.p12}}">',
  "<div style=\"background:url('{{credentialSubject.p5}}')\">styled</div>",
].join('\n');

/** Payloads written into the template itself (a hostile or compromised template author). */
export const TEMPLATE_PAYLOADS: string[] = [
  `<script>${fire(101)}</script>`,
  `<img src="x" onerror="${fire(102)}">`,
  `<svg onload="${fire(103)}"><circle r="5"></circle></svg>`,
  `<a id="js-link" href="javascript:${fire(104)}">click</a>`,
  `<iframe srcdoc="&lt;script&gt;${fire(105)}&lt;/script&gt;"></iframe>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${fire(106)}">`,
  `<div style="width: expression(${fire(107)})">expression</div>`,
  `<style>body { background: url("javascript:${fire(108)}") }</style>`,
  `<object data="javascript:${fire(109)}"></object>`,
  `<embed src="data:text/html;base64,${fireB64(110)}">`,
  `<form action="javascript:${fire(111)}"><button id="go">go</button></form>`,
  `<details open ontoggle="${fire(112)}"><summary>s</summary></details>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${fire(113)}"></style></mglyph></table></mtext></math>`,
  `<noscript><p title="</noscript><img src=x onerror=${fire(114)}>"></p></noscript>`,
  `<base href="javascript:${fire(115)}//">`,
  `<svg><animate onbegin="${fire(116)}" attributeName="x" dur="1s"></animate></svg>`,
  `<input autofocus onfocus="${fire(117)}">`,
  `<video><source onerror="${fire(118)}"></video>`,
  `<img src="x:gif" id="tpl-pic" onload="${fire(119)}">`,
  `{{credentialSubject.name}}}}<script>${fire(120)}</script>{{`,
];

export const HOSTILE_TEMPLATE = `<h1 id="card-title">{{credentialSubject.name}}</h1>\n${TEMPLATE_PAYLOADS.join('\n')}`;
