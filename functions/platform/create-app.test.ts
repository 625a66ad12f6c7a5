import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createGroupApp } from './create-app.ts';
import type { AppEnv } from './env.ts';
import { handleError } from './error-handler.ts';
import { validationHook } from './validation-hook.ts';

const Id = z.object({ id: z.string().min(3).openapi({ param: { name: 'id', in: 'path' } }) });
const Page = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  tag: z.union([z.string(), z.array(z.string())]).optional(),
});
const ok = { 200: { description: 'ok' } };

/** The same routes on a group app and on the library's own app: one of each input kind. */
const register = (app: OpenAPIHono<AppEnv>) => {
  app.onError(handleError);
  app.openapi(createRoute({ method: 'get', path: '/items/{id}', request: { params: Id }, responses: ok }), (c) =>
    c.json({ param: c.req.valid('param') }, 200),
  );
  app.openapi(createRoute({ method: 'get', path: '/items', request: { query: Page }, responses: ok }), (c) =>
    c.json({ query: c.req.valid('query') }, 200),
  );
  app.openapi(
    createRoute({ method: 'get', path: '/items/{id}/parts', request: { params: Id, query: Page }, responses: ok }),
    (c) => c.json({ param: c.req.valid('param'), query: c.req.valid('query') }, 200),
  );
  app.openapi(createRoute({ method: 'get', path: '/plain', responses: ok }), (c) => c.json({ plain: true }, 200));
  app.openapi(createRoute({ method: 'get', path: '/hidden', hide: true, responses: ok }), (c) => c.json({ hidden: true }, 200));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/items/{id}',
      request: {
        params: Id,
        body: { required: true, content: { 'application/json': { schema: z.object({ name: z.string() }) } } },
      },
      responses: ok,
    }),
    (c) => c.json({ param: c.req.valid('param'), json: c.req.valid('json') }, 200),
  );
  return app;
};

const group = register(createGroupApp());
const library = register(new OpenAPIHono<AppEnv>({ defaultHook: validationHook }));

const requests: [string, string, string?][] = [
  ['GET', '/items/abc'],
  ['GET', '/items/ab'],
  ['GET', '/items/a%20b%20c'],
  ['GET', '/items'],
  ['GET', '/items?limit=5'],
  ['GET', '/items?limit=0'],
  ['GET', '/items?limit=x&tag=a'],
  ['GET', '/items?tag=a&tag=b'],
  ['GET', '/items?limit=5&limit=6'],
  ['GET', '/items/abc/parts?limit=7&tag=t'],
  ['GET', '/items/ab/parts?limit=0'],
  ['GET', '/plain?x=1'],
  ['GET', '/hidden'],
  ['POST', '/items/abc', '{"name":"n"}'],
  ['POST', '/items/abc', '{"name":1}'],
  ['POST', '/items/ab', '{"name":"n"}'],
];

const handlersOf = (app: Hono<AppEnv>, method: string, path: string) =>
  app.routes.filter((route) => route.method === method && route.path === path).length;

describe('group apps check path and query in the route handler', () => {
  it.each(requests)('answer %s %s as the library does', async (method, path, body) => {
    const init = body ? { method, body, headers: { 'content-type': 'application/json' } } : { method };
    const [ours, theirs] = await Promise.all([group.request(path, init), library.request(path, init)]);
    expect(ours.status).toBe(theirs.status);
    expect(await ours.json()).toEqual(await theirs.json());
  });

  it('name the failing field in a 400', async () => {
    const res = await group.request('/items?limit=0');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^limit: /);
    expect(((await (await group.request('/items/ab')).json()) as { error: string }).error).toMatch(/^id: /);
  });

  it('document every route as the library does, hidden ones not at all', () => {
    const info = { openapi: '3.1.0', info: { title: 't', version: '1' } };
    const ours = group.getOpenAPI31Document(info);
    expect(ours).toEqual(library.getOpenAPI31Document(info));
    expect(Object.keys(ours.paths ?? {})).toEqual(['/items/{id}', '/items', '/items/{id}/parts', '/plain']);
  });

  it('register a read as one handler, a route with a body through the library', () => {
    expect(handlersOf(group, 'GET', '/items/:id')).toBe(1);
    expect(handlersOf(group, 'GET', '/items/:id/parts')).toBe(1);
    expect(handlersOf(group, 'POST', '/items/:id')).toBe(handlersOf(library, 'POST', '/items/:id'));
  });
});
