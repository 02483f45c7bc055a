import { QueryInputError } from "@/lib/core/page";
import { CONSOLE_PATH } from "@/lib/console/nav";
import { now } from "@/lib/clock";
import { listMembers, MAX_MEMBER_SEARCH, type MemberPage } from "@/lib/membership/list-members";
import { listMembershipPlans } from "@/lib/membership/list-membership-plans";
import { SUBSCRIPTION_STATES } from "@/lib/membership/states";
import { ConsoleShell, consoleMetadata, consolePage, formatDate, one, pageNotice, type Search } from "../_components/console";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Members");

const PATH = `${CONSOLE_PATH}/members`;
const PAGE_SIZE = 25;

export default async function MembersPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(PATH, "members:read");
  const plans = await listMembershipPlans({ schoolId: staff.school.id });
  const search = (one(params.q) ?? "").slice(0, MAX_MEMBER_SEARCH);
  const planId = plans.some((p) => p.id === one(params.plan)) ? one(params.plan)! : "";
  const state = (SUBSCRIPTION_STATES as readonly string[]).includes(one(params.state) ?? "") ? one(params.state)! : "";
  const after = one(params.after)?.slice(0, 2048) || null;
  const filter = { search: search.replace(/\0/g, "") || null, planId: planId || null, state: state || null, first: PAGE_SIZE };
  let page: MemberPage;
  let refused: string | null = null;
  try {
    page = await listMembers({ schoolId: staff.school.id, filter: { ...filter, after }, now: now() });
  } catch (err) {
    if (!(err instanceof QueryInputError)) throw err;
    refused = after ? "That page link is not valid: showing the first page." : err.message;
    page = await listMembers({ schoolId: staff.school.id, filter: { ...filter, search: after ? filter.search : null }, now: now() });
  }
  const next = new URLSearchParams();
  if (search) next.set("q", search);
  if (planId) next.set("plan", planId);
  if (state) next.set("state", state);
  if (page.pageInfo.endCursor) next.set("after", page.pageInfo.endCursor);
  return (
    <ConsoleShell staff={staff} current={PATH} title="Members" notice={await pageNotice(staff, params)}>
      <form className="console-filters" method="get" action={PATH} role="search" aria-label="Find members">
        <label>
          Email or name starts with
          <input type="search" name="q" defaultValue={search} maxLength={MAX_MEMBER_SEARCH} autoComplete="off" />
        </label>
        <label>
          Plan
          <select name="plan" defaultValue={planId}>
            <option value="">Any plan</option>
            {plans.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Subscription state
          <select name="state" defaultValue={state}>
            <option value="">Any state</option>
            {SUBSCRIPTION_STATES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, " ")}
              </option>
            ))}
          </select>
        </label>
        <div>
          <button className="button" type="submit">
            Search
          </button>
        </div>
      </form>
      {refused ? (
        <p className="error" role="alert">
          {refused}
        </p>
      ) : null}
      {page.nodes.length === 0 ? (
        <p>No members match.</p>
      ) : (
        <div className="table-scroll">
          <table className="console-table">
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Email</th>
                <th scope="col">Roles</th>
                <th scope="col">Joined</th>
              </tr>
            </thead>
            <tbody>
              {page.nodes.map((m) => (
                <tr key={m.id}>
                  <td>
                    <a href={`${PATH}/${m.id}`}>{m.name || m.email}</a>
                  </td>
                  <td>{m.email}</td>
                  <td>{m.roles.join(", ") || "—"}</td>
                  <td>{formatDate(m.joinedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.pageInfo.hasNextPage && page.pageInfo.endCursor ? (
        <p>
          <a href={`${PATH}?${next.toString()}`}>Next page</a>
        </p>
      ) : null}
    </ConsoleShell>
  );
}
