import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SWAGGER_UI_VERSION, type SwaggerUiFile, type SwaggerUiFiles } from './api-docs-page.ts';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * Swagger UI's files from the installed swagger-ui-dist (the Node web process and the Node storage service),
 * read on first request and kept, without their source-map comment (the maps are not served). The installed release must be the one the
 * page's asset path names.
 */
export const swaggerUiFilesFromPackage = (): SwaggerUiFiles => {
  const installed = (require('swagger-ui-dist/package.json') as { version: string }).version;
  if (installed !== SWAGGER_UI_VERSION) {
    throw new Error(`swagger-ui-dist ${installed} is installed, the explorer names ${SWAGGER_UI_VERSION} (core/service-kit/api-docs-page.ts)`);
  }
  const cache = new Map<SwaggerUiFile, Promise<Uint8Array>>();
  const load = async (name: SwaggerUiFile) => {
    const text = await readFile(join(packageDir, name), 'utf8');
    return new TextEncoder().encode(text.replace(/\n\/[/*]# sourceMappingURL=[^\n]*\s*$/, '\n'));
  };
  return (name) => {
    if (!cache.has(name)) cache.set(name, load(name));
    return cache.get(name)!;
  };
};
