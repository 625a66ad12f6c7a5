import type { Hono } from 'hono';
import { readPublishedTemplate } from '../../core/render-templates/published-template.ts';
import { badRequest } from '../../core/errors.ts';
import type { AppEnv } from '../platform/env.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { pageHeaders } from './page-headers.ts';
import { templateRateLimit } from './template-rate-limit.ts';

const MAX_URL_CHARS = 2048;

const requiredUrl = (value: string | undefined) => {
  if (value === undefined || value === '') throw badRequest('url: is required');
  if (value.length > MAX_URL_CHARS) throw badRequest(`url: must be at most ${MAX_URL_CHARS} characters`);
  if (!/^https?:\/\//i.test(value)) throw badRequest('url: must be an http(s) URL');
  return value;
};

/**
 * GET /verify/template?url=…&digestMultibase=…: the HTML of a render template published by this
 * service, for the page to fill and sanitise itself (as text/plain: never rendered as a page here).
 * Public: limited per client (template-rate-limit.ts).
 */
export const registerGetTemplate = (app: Hono<AppEnv>) =>
  app.get('/template', pageHeaders('no-cache'), templateRateLimit, async (c) => {
    const url = requiredUrl(c.req.query('url'));
    const digest = c.req.query('digestMultibase');
    if (digest !== undefined && (digest === '' || digest.length > 200)) throw badRequest('digestMultibase: must be a multibase SHA-256 multihash');
    const html = await readPublishedTemplate(requestDeps(c), url, digest);
    return c.body(html, 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  });
