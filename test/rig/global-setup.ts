import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { readSystemServices } from '../../core/settings/system-services.ts';
import { prepareDatabase } from '../../core/start-up/prepare-database.ts';
import { startPostgres } from './postgres-server.ts';
import { TEST_ENCRYPTION_KEY } from './test-settings.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    templateDatabase: string;
    databasePrefix: string;
  }
}

/**
 * One PostgreSQL for the run (TEST_DATABASE_URL, else embedded) and one migrated, seeded template
 * database; every test file clones the template into a database of its own.
 */
export default async function setup(project: TestProject) {
  const server = await startPostgres(process.env.TEST_DATABASE_URL);
  const template = `css_template_${process.pid}_${Date.now()}`;
  const admin = postgres(server.adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  await prepareDatabase({
    databaseUrl: server.urlFor(template),
    dataEncryptionKey: TEST_ENCRYPTION_KEY,
    systemServices: readSystemServices({}),
  });
  project.provide('postgresAdminUrl', server.adminUrl);
  project.provide('templateDatabase', template);
  project.provide('databasePrefix', `css_t_${process.pid}`);

  return async () => {
    const leftovers = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`css_t_${process.pid}_%`} or datname = ${template}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.end();
    await server.stop();
  };
}
