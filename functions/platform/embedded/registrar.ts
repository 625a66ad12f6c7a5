import '@hono/zod-openapi';
import * as z from 'zod';
import type { RegistrarRow } from '../../../core/registrars/registrar-repository.ts';
import { ownershipFlag } from '../../../core/tenancy/visibility.ts';
import { iso, timestamps } from './timestamps.ts';

export const QualifierSchema = z
  .object({
    id: z.string(),
    key: z.string(),
    description: z.string(),
    validationPattern: z.string(),
    order: z.number().int(),
  })
  .openapi('Qualifier');

export const RegistrarSchema = z
  .object({
    id: z.string().openapi({ example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
    name: z.string().openapi({ example: 'GS1' }),
    namespace: z.string().openapi({ example: 'gs1' }),
    url: z.string().openapi({ example: 'https://www.gs1.org' }),
    idrServiceInstanceId: z.string().nullable(),
    isSystemDefault: z.boolean(),
    ...timestamps,
  })
  .openapi('Registrar');

type QualifierRow = z.infer<typeof QualifierSchema>;

export const toQualifierResponse = ({ id, key, description, validationPattern, order }: QualifierRow): QualifierRow => ({
  id,
  key,
  description,
  validationPattern,
  order,
});

export const toRegistrarResponse = (row: RegistrarRow): z.infer<typeof RegistrarSchema> => ({
  id: row.id,
  name: row.name,
  namespace: row.namespace,
  url: row.url,
  idrServiceInstanceId: row.idrServiceInstanceId,
  ...ownershipFlag(row),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});
