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

/** A 400 naming the first failing field of `target` (a route's body, query, path or headers). */
export const invalidInput = (issues: readonly IssueLike[], target: string): never => {
  const [first] = issues;
  throw badRequest(first ? describeIssue(first, target === 'json' ? 'body' : target) : 'Invalid request');
};

// biome-ignore lint: the hook is generic over every route.
export const validationHook: Hook<any, any, any, any> = (result, _c) => {
  if (!result.success) invalidInput(result.error.issues, result.target);
};
