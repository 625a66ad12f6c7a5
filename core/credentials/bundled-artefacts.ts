import manifest from './artefacts/manifest.json' with { type: 'json' };
import { sha256Hex } from '../crypto/encoding.ts';
import { readArtefactFromDisk } from './artefact-files.ts';

export { readArtefactFromDisk };

export interface ArtefactEntry {
  urls: string[];
  /** Path inside `core/credentials/artefacts/`. */
  file: string;
  sha256: string;
}

export const ARTEFACT_MANIFEST: readonly ArtefactEntry[] = manifest.entries;

/** Reads a bundled file's bytes by its manifest path (Node reads the folder; other runtimes can bundle it). */
export type ArtefactReader = (file: string) => Promise<Uint8Array>;


/**
 * The spelling variants credentials cite for one document: the fragment is never part of it, and a
 * trailing slash is optional (`…/untp/dpp/0.6.1/` and `…/untp/dpp/0.6.1` name the same context).
 */
const artefactKey = (url: string): string => url.replace(/#.*$/, '').replace(/\/+$/, '');

const BY_KEY = new Map(ARTEFACT_MANIFEST.flatMap((entry) => entry.urls.map((url) => [artefactKey(url), entry] as const)));

export const findBundledArtefact = (url: string): ArtefactEntry | undefined => BY_KEY.get(artefactKey(url));

const hashMatches = async (entry: ArtefactEntry, bytes: Uint8Array): Promise<boolean> =>
  (await sha256Hex(bytes)) === entry.sha256;

/**
 * The bundled copy of a published document, parsed, or undefined when none is bundled. A file whose
 * bytes no longer match the manifest is never used (it throws, so the fault is seen, not masked).
 */
export const createBundledArtefacts = (read: ArtefactReader = readArtefactFromDisk) => {
  const parsed = new Map<string, Promise<unknown>>();
  const load = async (entry: ArtefactEntry): Promise<unknown> => {
    const bytes = await read(entry.file);
    if (!(await hashMatches(entry, bytes))) throw new Error(`Bundled artefact ${entry.file} does not match its manifest hash`);
    return JSON.parse(new TextDecoder().decode(bytes));
  };
  return {
    lookup(url: string): Promise<unknown> | undefined {
      const entry = findBundledArtefact(url);
      if (!entry) return undefined;
      let document = parsed.get(entry.file);
      if (!document) {
        document = load(entry);
        document.catch(() => parsed.delete(entry.file));
        parsed.set(entry.file, document);
      }
      return document;
    },
  };
};

export type BundledArtefacts = ReturnType<typeof createBundledArtefacts>;
