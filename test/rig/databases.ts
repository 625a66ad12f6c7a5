import postgres from 'postgres';
import { inject } from 'vitest';

/** A new empty database on the test server (for start-up tests that migrate from nothing). */
export const createEmptyDatabase = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const adminUrl = inject('postgresAdminUrl');
  const name = `${inject('databasePrefix')}_e${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
};
