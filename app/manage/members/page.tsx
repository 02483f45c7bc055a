import { CONSOLE_PATH } from "@/lib/console/nav";
import { now } from "@/lib/clock";
import { consoleMemberList } from "@/lib/console/member-list";
import { MAX_MEMBER_SEARCH } from "@/lib/membership/list-members";
import type { MemberRecord } from "@/lib/membership/member-record";
import { SUBSCRIPTION_STATES } from "@/lib/membership/states";
import { ConsoleShell, SelectField, SubmitButton, consoleMetadata, consolePage, formatDate, pageNotice, type Search } from "../_components/console";
import { ConsoleTable, NextPageLink, PageAlert, type ConsoleColumn } from "../_components/lists";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Members");

const PATH = `${CONSOLE_PATH}/members`;

const COLUMNS: ConsoleColumn<MemberRecord>[] = [
  { header: "Member", cell: (m) => <a href={`${PATH}/${m.id}`}>{m.name || m.email}</a> },
  { header: "Email", cell: (m) => m.email },
  { header: "Roles", cell: (m) => m.roles.join(", ") || "—" },
  { header: "Joined", cell: (m) => formatDate(m.joinedAt) },
];

const STATE_OPTIONS = SUBSCRIPTION_STATES.map((s) => ({ value: s, label: s.replace(/_/g, " ") }));

export default async function MembersPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(PATH, "members:read");
  const { plans, filters, page, refused } = await consoleMemberList({ schoolId: staff.school.id, query: params, now: now() });
  return (
    <ConsoleShell staff={staff} current={PATH} title="Members" notice={await pageNotice(staff, params)}>
      <form className="console-filters" method="get" action={PATH} role="search" aria-label="Find members">
        <label>
          Email or name starts with
          <input type="search" name="q" defaultValue={filters.q} maxLength={MAX_MEMBER_SEARCH} autoComplete="off" />
        </label>
        <SelectField label="Plan" name="plan" defaultValue={filters.plan} none="Any plan" options={plans.map((p) => ({ value: p.id, label: p.name }))} />
        <SelectField label="Subscription state" name="state" defaultValue={filters.state} none="Any state" options={STATE_OPTIONS} />
        <SubmitButton label="Search" row />
      </form>
      <PageAlert text={refused} />
      <ConsoleTable caption="Members" columns={COLUMNS} rows={page.nodes} rowKey={(m) => m.id} empty="No members match." />
      <NextPageLink path={PATH} pageInfo={page.pageInfo} query={filters} />
    </ConsoleShell>
  );
}
