import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/**
 * The composed app's router. Hono's RegExpRouter matches a path with one regular expression but refuses
 * a static segment beside a parameter (`/credentials/verify` beside `/credentials/{id}`), so the whole
 * app falls back to the TrieRouter, which walks the tree on every request. This router splits the routes
 * by their resource (`<prefix>/<group>` under the API's prefix, or the first segment elsewhere): each part
 * gets a router of its own, the RegExpRouter where the part's routes allow it, else the TrieRouter. Routes not bound to one
 * part (`*` middleware, a parameter within the part's segments) are in every part, in the order they were
 * added, so each path matches what it matched in one router, in the same order.
 */
const boundToOnePart = (part: string) => !/[:*{]/.test(part);

export class PartitionedRouter<T> implements Router<T> {
  name = 'PartitionedRouter';
  readonly #below: string;
  #routes: [method: string, path: string, handler: T][] | undefined = [];
  #parts = new Map<string, SmartRouter<T>>();
  #everywhere: SmartRouter<T> | undefined;

  /** `apiPrefix`: the path whose groups are parts of their own (e.g. `/api/v1`). */
  constructor(apiPrefix: string) {
    this.#below = `${apiPrefix}/`;
  }

  /** The part a path belongs to: `/api/v1/registrars` for `/api/v1/registrars/x`, `/verify` for `/verify/x`. */
  #partOf(path: string): string {
    const start = path.startsWith(this.#below) ? this.#below.length : 1;
    const end = path.indexOf('/', start);
    return end === -1 ? path : path.slice(0, end);
  }

  add(method: string, path: string, handler: T): void {
    if (!this.#routes) throw new Error('Can not add a route since the matcher is already built.');
    this.#routes.push([method, path, handler]);
  }

  match(method: string, path: string): Result<T> {
    if (this.#routes) this.#build(this.#routes);
    return (this.#parts.get(this.#partOf(path)) ?? this.#everywhere!).match(method, path);
  }

  /** The name of the router that answers `path` once its part has matched (RegExpRouter or TrieRouter). */
  activeRouterOf(path: string): string {
    return (this.#parts.get(this.#partOf(path)) ?? this.#everywhere)!.activeRouter.name;
  }

  #build(routes: [string, string, T][]) {
    const routerOf = (own: (part: string) => boolean) => {
      const router = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
      for (const [method, path, handler] of routes) {
        const part = this.#partOf(path);
        if (!boundToOnePart(part) || own(part)) router.add(method, path, handler);
      }
      return router;
    };
    for (const [, path] of routes) {
      const part = this.#partOf(path);
      if (boundToOnePart(part) && !this.#parts.has(part)) this.#parts.set(part, routerOf((other) => other === part));
    }
    this.#everywhere = routerOf(() => false);
    this.#routes = undefined;
  }
}
