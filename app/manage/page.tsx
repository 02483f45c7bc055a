import { redirect } from "next/navigation";
import { CONSOLE_NAV, CONSOLE_PATH } from "@/lib/console/nav";
import { ConsoleShell, consoleMetadata, consolePage, pageNotice, type Search } from "./_components/console";
import { OverviewPanels } from "./_components/overview";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Overview");

export default async function OverviewPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(CONSOLE_PATH, null);
  if (!staff.permissions.has("overview")) {
    // A teacher's console starts at the first page of theirs.
    const first = CONSOLE_NAV.find((item) => item.href !== CONSOLE_PATH && staff.permissions.has(item.permission));
    if (first) redirect(first.href);
  }
  return (
    <ConsoleShell staff={staff} current={CONSOLE_PATH} title="Overview" notice={await pageNotice(staff, params)}>
      <OverviewPanels schoolId={staff.school.id} />
    </ConsoleShell>
  );
}
