import type { Hook } from '@hono/zod-openapi';
import { badRequest } from '../../core/errors.ts';
import { issuePath } from '../../core/validation/issue-path.ts';

export { issuePath };

interface IssueLike {
  path: PropertyKey[];
  message: string;
}

/** First validation failure as `field: message` (the spec's 400 body names the field). */
export const describeIssue = (issue: IssueLike, fallbackTarget: string): string =>
  `${issuePath(issue.path) || fallbackTarget}: ${issue.message}`;

// biome-ignore lint: the hook is generic over every route.
export const validationHook: Hook<any, any, any, any> = (result, _c) => {
  if (result.success) return;
  const [first] = result.error.issues;
  throw badRequest(first ? describeIssue(first, result.target === 'json' ? 'body' : result.target) : 'Invalid request');
};
