import { QueryInputError } from "../core/page";

/** A page's search parameters as Next gives them: a name may come once, several times or not at all. */
export type PageQuery = Record<string, string | string[] | undefined>;
/** A parameter's first value: a repeated one (`?q=a&q=b`) is read as its first. */
export const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** What a list page says when its page link's cursor is not valid (it shows the first page instead). */
export const INVALID_PAGE_LINK = "That page link is not valid: showing the first page.";

/**
 * A list page read at the cursor `after`, or, when that cursor is refused (a forged or stale page
 * link: QueryInputError), the first page with `badCursor` set: a console page answers a bad link
 * with its first page and a message, never an error page. Any other error is the caller's.
 */
export async function pageAtCursor<T>(after: string | null, read: (after: string | null) => Promise<T>): Promise<{ result: T; badCursor: boolean }> {
  try {
    return { result: await read(after), badCursor: false };
  } catch (err) {
    if (!after || !(err instanceof QueryInputError)) throw err;
    return { result: await read(null), badCursor: true };
  }
}
