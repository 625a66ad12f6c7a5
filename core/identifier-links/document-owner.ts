import { and, inArray, ne, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifierLinks } from '../../db/schema/index.ts';
import type { IdrDocument, StoredIdrLink } from '../adapters/idr/idr-adapter.ts';
import { conflict } from '../errors.ts';
import { documentName } from './resolver-document.ts';

type Queries = Pick<Database, 'select'>;

/**
 * On a resolver shared by tenants, the tenant whose links are live in a document owns it: another
 * tenant's publish there is 409 (the resolver is public, so this tells nothing a resolution would not).
 */
export const assertDocumentNotOwnedByAnother = async (db: Queries, tenantId: string, instanceId: string, document: IdrDocument, stored: StoredIdrLink[]) => {
  const live = stored.filter((l) => l.active !== false).map((l) => l.linkId);
  if (live.length === 0) return;
  const [foreign] = await db
    .select({ id: identifierLinks.id })
    .from(identifierLinks)
    .where(and(eq(identifierLinks.idrServiceInstanceId, instanceId), ne(identifierLinks.tenantId, tenantId), inArray(identifierLinks.idrLinkId, live)))
    .limit(1);
  if (foreign) {
    throw conflict(`Another tenant's links are live in the resolver document ${documentName(document)}; only that tenant can publish there`, 'IDR_DOCUMENT_OWNED');
  }
};
