import Papa from 'papaparse';
import { badRequest } from '../../../core/errors.ts';

/** The columns of a batch file for the product passport: each row names the records by id, as the pickers do. */
export const BATCH_COLUMNS = ['reference', 'organisation', 'facility', 'product', 'countryOfProduction'] as const;

const MAX_ROWS = 1000;

/** The rows of an uploaded CSV (header row first) or JSON (an array of objects) file, as text fields. */
export const readBatchRows = (fileName: string, text: string): Record<string, string>[] => {
  let rows: unknown[];
  if (/\.json$/i.test(fileName) || text.trimStart().startsWith('[')) {
    try {
      rows = JSON.parse(text) as unknown[];
    } catch {
      throw badRequest('file: is not valid JSON');
    }
    if (!Array.isArray(rows)) throw badRequest('file: a JSON file must hold an array of rows');
  } else {
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim() });
    const [problem] = parsed.errors;
    if (problem) throw badRequest(`file: row ${(problem.row ?? 0) + 1}: ${problem.message}`);
    rows = parsed.data;
  }
  if (rows.length === 0) throw badRequest('file: has no rows');
  if (rows.length > MAX_ROWS) throw badRequest(`file: has more than ${MAX_ROWS} rows`);
  return rows.map((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) throw badRequest(`file: row ${i + 1} must be an object`);
    return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? '' : String(value)]));
  });
};

/** The column template: the header and one row per product (its organisation and facility when it names them). */
export const batchTemplateCsv = (products: { id: string; producedByOrganisationId: string | null; manufacturingFacilityId: string | null }[]) =>
  Papa.unparse({
    fields: [...BATCH_COLUMNS],
    data: products.map((p, i) => [`row-${i + 1}`, p.producedByOrganisationId ?? '', p.manufacturingFacilityId ?? '', p.id, '']),
  });
