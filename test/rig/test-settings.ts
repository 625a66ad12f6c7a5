/** Fixed settings every test app starts from (a test-only key, never the dev placeholder). */
export const TEST_ENCRYPTION_KEY = 'a3f1c2d4e5b6978812345678abcdef0011223344556677889900aabbccddeeff';
export const TEST_AUDIENCE = 'credential-support-service';
export const TEST_APP_CLIENT = { clientId: 'css-web', clientSecret: 'css-web-secret' };
