/** Guarded operations accept either a bearer access token or the browser session cookie. */
export const guarded: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sessionCookie: [] }];

export const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from the IDP (client credentials flow)',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'css_session',
    description: 'Browser session set by /auth/callback after signing in at /auth/login',
  },
} as const;
