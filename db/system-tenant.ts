/** The system tenant owns defaults that every tenant can read and none can change. */
export const SYSTEM_TENANT_ID = 'system';
