import { db } from "@/lib/db/client";

/** The overview's numbers (the full set with charts is lib/console/overview.ts). */
export async function OverviewPanels({ schoolId }: { schoolId: string }) {
  const members = await db().schoolMembership.count({ where: { schoolId } });
  return (
    <ul className="cards">
      <li className="card">
        <h2>Members</h2>
        <p className="console-figure">{members}</p>
      </li>
    </ul>
  );
}
