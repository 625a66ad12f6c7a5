import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env.ts';
import { validationHook } from './validation-hook.ts';

/** Every resource group is one of these: zod-validated routes that document themselves. */
export const createGroupApp = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
