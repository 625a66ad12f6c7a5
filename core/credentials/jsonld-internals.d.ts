// The jsonld.js internals this project relies on (jsonld 9; see jsonld-context-cache.ts).
declare module 'jsonld/lib/util.js' {
  const util: { clone: (value: unknown) => unknown };
  export default util;
}
declare module 'jsonld/lib/ContextResolver.js' {
  export default class ContextResolver {
    constructor(options: { sharedCache: { get(key: string): unknown; set(key: string, value: unknown): void } });
  }
}
declare module 'jsonld/lib/ResolvedContext.js' {
  export default class ResolvedContext {
    document: unknown;
    getProcessed(activeCtx: object): unknown;
    setProcessed(activeCtx: object, processed: unknown): void;
  }
}
