import type { ReactNode } from "react";

// The blocks every console page builds its lists from, so each list has the same markup: a section
// named by its heading, a table with a (visually hidden) caption and column headers, the sentence
// shown instead of an empty table, and the cursor's "Next page" link.

/** A section of a console page, named by its h2 (the heading's id is the section's accessible name). */
export function ConsoleSection(props: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

export interface ConsoleColumn<T> {
  /** The column's header, also its React key: unique within a table. */
  header: string;
  cell: (row: T) => ReactNode;
}

/**
 * A list as a table, or `empty` (a sentence, nothing when null) when there is no row. The caption
 * names the table for assistive technology. On a phone each row is a card of "header: value" lines
 * (the cells' data-label, globals.css): a table of five columns is unreadable at 320 px.
 */
export function ConsoleTable<T>(props: { caption: string; columns: readonly ConsoleColumn<T>[]; rows: readonly T[]; rowKey: (row: T) => string; empty: ReactNode }) {
  if (props.rows.length === 0) return props.empty === null ? null : <p>{props.empty}</p>;
  return (
    <div className="table-scroll">
      <table className="console-table">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((c) => (
                <td key={c.header} data-label={c.header}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A list of cards (one `card` each), or `empty` (a sentence) when there is none. */
export function CardList<T>(props: { items: readonly T[]; itemKey: (item: T) => string; empty: ReactNode; card: (item: T) => ReactNode }) {
  if (props.items.length === 0) return <p>{props.empty}</p>;
  return (
    <ul className="account-items">
      {props.items.map((item) => (
        <li key={props.itemKey(item)} className="card">
          {props.card(item)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The link to a list's next page, when there is one: `path` with the page's filters (`query`, empty
 * values left out, so the link carries only what the visitor chose) and the page's end cursor.
 */
export function NextPageLink(props: { path: string; pageInfo: { hasNextPage: boolean; endCursor: string | null }; query?: Record<string, string> }) {
  const { hasNextPage, endCursor } = props.pageInfo;
  if (!hasNextPage || !endCursor) return null;
  const params = new URLSearchParams(Object.entries(props.query ?? {}).filter(([, v]) => v !== ""));
  params.set("after", endCursor);
  return (
    <p>
      <a href={`${props.path}?${params.toString()}`}>Next page</a>
    </p>
  );
}

/** What a list page refused of its address (a forged page link, a search too short…), said at once. */
export function PageAlert({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

