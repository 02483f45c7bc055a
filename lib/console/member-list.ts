// The member list of the console (/manage/members): its search parameters as typed in the address
// bar, read into the filters listMembers takes (the Admin API's and MCP's member search). A
// parameter the list does not know (a plan of no plan of this school, a state that is none) is left
// out, as the filter form shows it; a page link or search listMembers refuses is a message on the
// page with the list it can show, never an error page.
import { QueryInputError } from "../core/page";
import { listMembers, MAX_MEMBER_SEARCH, type MemberPage } from "../membership/list-members";
import { listMembershipPlans } from "../membership/list-membership-plans";
import { isSubscriptionState } from "../membership/states";
import { INVALID_PAGE_LINK, one, pageAtCursor, type PageQuery } from "./paging";

export const MEMBER_PAGE_SIZE = 25;
/** Longer page links are no cursor listMembers writes: cut before decoding. */
const MAX_CURSOR = 2048;

export interface ConsoleMemberList {
  /** The school's plans, for the plan filter. */
  plans: Awaited<ReturnType<typeof listMembershipPlans>>;
  /** The filters applied, as the form and the next page's link carry them ("" for none). */
  filters: { q: string; plan: string; state: string };
  page: MemberPage;
  /** What was refused of the address, said on the page; null when nothing was. */
  refused: string | null;
}

export async function consoleMemberList(o: { schoolId: string; query: PageQuery; now: Date }): Promise<ConsoleMemberList> {
  const plans = await listMembershipPlans({ schoolId: o.schoolId });
  const q = (one(o.query.q) ?? "").slice(0, MAX_MEMBER_SEARCH);
  const planParam = one(o.query.plan);
  const plan = plans.some((p) => p.id === planParam) ? planParam! : "";
  const stateParam = one(o.query.state) ?? "";
  const state = isSubscriptionState(stateParam) ? stateParam : "";
  const after = one(o.query.after)?.slice(0, MAX_CURSOR) || null;
  const filters = { q, plan, state };
  // Postgres text cannot hold U+0000: dropped from the search rather than refused.
  const search = q.replace(/\0/g, "") || null;
  const read = (s: string | null, a: string | null) => listMembers({ schoolId: o.schoolId, filter: { search: s, planId: plan || null, state: state || null, first: MEMBER_PAGE_SIZE, after: a }, now: o.now });
  try {
    const { result, badCursor } = await pageAtCursor(after, (a) => read(search, a));
    return { plans, filters, page: result, refused: badCursor ? INVALID_PAGE_LINK : null };
  } catch (err) {
    if (!(err instanceof QueryInputError)) throw err;
    // A search listMembers refuses (its own limits, e.g. longer than allowed once lower-cased): its message, and the list without it.
    return { plans, filters, page: await read(null, null), refused: err.message };
  }
}
