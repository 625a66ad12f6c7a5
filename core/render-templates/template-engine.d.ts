/** Bounds on a template and its rendering (see template-engine.js). */
export declare const TEMPLATE_BOUNDS: Readonly<{ templateChars: number; nesting: number; steps: number; outputChars: number }>;

/** A malformed template, or one that exceeds TEMPLATE_BOUNDS. */
export declare class TemplateError extends Error {}

/** HTML-escapes text for element content and quoted attribute values. */
export declare const escapeHtml: (text: string) => string;

/** Renders a Handlebars-style template against data, HTML-escaped; throws TemplateError when it cannot. */
export declare const renderTemplate: (template: string, data: unknown) => string;
