import type * as z from 'zod';
import type { LinkRecordSchema, PublishLinksBody } from './schemas.ts';

/** The OpenAPI document's examples of link publishing (test/openapi/examples.test.ts checks them against the schemas). */

export const publishLinksExample: z.input<typeof PublishLinksBody> = {
  links: [{
    href: 'https://credentials.example.com/verify?q=%7B%22payload%22%3A%7B%22uri%22%3A%22https%3A%2F%2Fstorage.example.com%2Fdpp-42.json%22%7D%7D',
    rel: 'untp:dpp',
    type: 'text/html',
    title: 'Digital Product Passport',
    hreflang: ['en'],
  }],
  qualifierPath: '/10/LOT42',
  description: 'Passport of lot 42',
};

export const publishedLinksExample: z.input<typeof LinkRecordSchema>[] = [{
  id: 'q8n2k4x7m1c0v5b9z3l6h1j0',
  identifierId: 'ckv9x2l0k0000qzrm8d1b2c3d',
  idrLinkId: '6f1d2c3b-4a59-4e8f-9b7a-1c2d3e4f5a6b',
  idrServiceInstanceId: 'cblr5402swrgad9ai1cxqe5c3',
  qualifierPath: '/10/LOT42',
  description: 'Passport of lot 42',
  published: {
    href: 'https://credentials.example.com/verify?q=%7B%22payload%22%3A%7B%22uri%22%3A%22https%3A%2F%2Fstorage.example.com%2Fdpp-42.json%22%7D%7D',
    rel: 'untp:dpp',
    type: 'text/html',
    title: 'Digital Product Passport',
    hreflang: ['en'],
  },
  createdAt: '2026-11-28T11:51:53.852Z',
  updatedAt: '2026-11-28T11:51:53.852Z',
}];
