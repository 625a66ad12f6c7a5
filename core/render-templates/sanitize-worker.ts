/** Runs in a worker thread of the sanitiser pool (core/render-templates/sanitize-pool.ts). */
import { sanitizeTemplate } from './sanitize.ts';

export default (html: string) => sanitizeTemplate(html);
