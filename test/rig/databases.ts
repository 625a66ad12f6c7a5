import postgres from 'postgres';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

/**
 * A database of its own on the test server: a clone of the migrated template (default), or empty
 * (for start-up tests that migrate from nothing). Dropped by `drop()` or at the end of the run.
 */
export const createTestDatabase = async (from: 'template' | 'empty' = 'template'): Promise<TestDatabase> => {
  const adminUrl = inject('postgresAdminUrl');
  const name = `${inject('databasePrefix')}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const create = from === 'template' ? `create database "${name}" template "${inject('templateDatabase')}"` : `create database "${name}"`;
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(create);
      break;
    } catch (error) {
      if (attempt >= 20) throw error; // the template is briefly busy while another file clones it
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
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

export const createEmptyDatabase = () => createTestDatabase('empty');
