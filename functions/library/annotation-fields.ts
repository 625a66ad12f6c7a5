import '@hono/zod-openapi';
import * as z from 'zod';
import { CORE_TYPE_CODE_LIST } from '../../core/library/credential-types.ts';
import { aesKeyHex, nonBlankText, text, unpaddedText } from '../platform/fields.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDay = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return DAY.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** The annotation fields a tenant writes on an external record (peer §4.2), one definition for register and PATCH. */
export const annotationFields = {
  displayName: nonBlankText('name').openapi({ example: 'Passport of batch 42' }),
  declaredCredentialType: z.enum(CORE_TYPE_CODE_LIST, { error: () => `must be one of ${CORE_TYPE_CODE_LIST.join(', ')}` }),
  dateReceived: z.string({ error: () => 'must be a calendar date YYYY-MM-DD' }).max(10, 'must be a calendar date YYYY-MM-DD').refine(isCalendarDay, 'must be a calendar date YYYY-MM-DD'),
  notes: z.string({ error: () => 'must be a string' }).max(2000, 'must be at most 2000 characters'),
};

/** The supplier's key of an encrypted source (register, or open a copy still encrypted). */
export const sourceEncryptionField = z.object({
  decryptionKey: aesKeyHex().openapi({ description: 'AES-256-GCM key of an encrypted source; used once, never stored or shown' }),
  encryptionMethod: z.enum(['AES-256-GCM'], { error: () => 'must be AES-256-GCM' }).optional(),
});

export const RegisterExternalBody = z
  .object({
    sourceUrl: unpaddedText('url').openapi({ example: 'https://supplier.example.com/credentials/dpp-42.json' }),
    sourceEncryption: sourceEncryptionField.optional(),
    annotations: z.object({
      displayName: annotationFields.displayName,
      declaredCredentialType: annotationFields.declaredCredentialType,
      dateReceived: annotationFields.dateReceived.optional(),
      notes: annotationFields.notes.optional(),
    }),
    tags: z.array(text()).optional().openapi({ description: 'Lower-case words joined by hyphens; see the tag rules' }),
  })
  .openapi('RegisterExternalCredential');

export const UpdateAnnotationsBody = z
  .object({
    displayName: annotationFields.displayName.optional(),
    declaredCredentialType: annotationFields.declaredCredentialType.optional(),
    dateReceived: annotationFields.dateReceived.nullable().optional().openapi({ description: 'null clears it' }),
    notes: annotationFields.notes.nullable().optional().openapi({ description: 'null clears it' }),
  })
  .openapi('UpdateLibraryAnnotations');
