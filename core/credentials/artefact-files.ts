/**
 * Reads a bundled artefact's bytes by its manifest path, from `core/credentials/artefacts/` on disk. Edge bundles
 * have no such folder: there this module is replaced by one that reads the same files from a module of their own
 * (scripts/edge-bundle.ts, `artefactsModule`), loaded on first use.
 */
export const readArtefactFromDisk = async (file: string): Promise<Uint8Array> => {
  const { readFile } = await import('node:fs/promises');
  return new Uint8Array(await readFile(new URL(`./artefacts/${file}`, import.meta.url)));
};
