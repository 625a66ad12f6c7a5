import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ConsoleEnv } from './console-env.ts';

/** Rows a paged console list shows at once. */
export const PAGE_SIZE = 20;

/** The page a list's `page` query asks for (1 when absent or not a positive number), and its database window. */
export const pageOf = (c: Context<ConsoleEnv>) => {
  const page = Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1);
  return { page, window: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } };
};

/** How many pages `total` rows fill (at least one). */
export const pageCount = (total: number) => Math.max(1, Math.ceil(total / PAGE_SIZE));

export interface ListColumn<T> {
  label: string;
  cell: (row: T) => Child;
}

/** Every console list: a captioned table in a scrolling wrapper, a header cell and a data cell per column. */
export const ListTable = <T,>(props: { caption: string; columns: ListColumn<T>[]; rows: T[] }) => (
  <div class="table-wrap">
    <table>
      <caption class="hint">{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col">{column.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            {props.columns.map((column) => (
              <td>{column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

/** Previous and next links of a paged list (none when it has one page); `link` gives a page's address with the list's filters. */
export const Pager = (props: { page: number; pages: number; link: (page: number) => string }) =>
  props.pages > 1 ? (
    <nav class="pager" aria-label="Pages">
      {props.page > 1 ? <a href={props.link(props.page - 1)} rel="prev">Previous page</a> : null}
      <span>{`Page ${props.page} of ${props.pages}`}</span>
      {props.page < props.pages ? <a href={props.link(props.page + 1)} rel="next">Next page</a> : null}
    </nav>
  ) : null;
