import type { AuditEvent } from "@/lib/db/generated/client";
import { AUDIT_ACTOR_TYPES } from "@/lib/db/audit";
import { consoleAuditList } from "@/lib/console/audit-list";
import { CONSOLE_PATH } from "@/lib/console/nav";
import { ConsoleShell, SelectField, SubmitButton, consoleMetadata, consolePage, formatDateTime, type Search } from "../_components/console";
import { ConsoleTable, NextPageLink, PageAlert, type ConsoleColumn } from "../_components/lists";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Audit log");

const PATH = `${CONSOLE_PATH}/audit`;

const ACTOR_LABELS: Record<string, string> = { member: "Staff or member", api_key: "API key", oauth_client: "App (OAuth)", system: "System job", cli: "Command line" };

/** The changed fields as "field: from → to", one a line; other summaries as their JSON. */
function Changes({ summary }: { summary: AuditEvent["summary"] }) {
  if (summary === null || typeof summary !== "object" || Array.isArray(summary)) return <>{JSON.stringify(summary)}</>;
  const entries = Object.entries(summary);
  if (!entries.length) return <>—</>;
  return (
    <ul className="plain">
      {entries.map(([field, change]) => {
        const c = change as { from?: unknown; to?: unknown } | null;
        const pair = c && typeof c === "object" && ("from" in c || "to" in c);
        return <li key={field}>{pair ? `${field}: ${JSON.stringify(c.from ?? null)} → ${JSON.stringify(c.to ?? null)}` : `${field}: ${JSON.stringify(change)}`}</li>;
      })}
    </ul>
  );
}

const COLUMNS: ConsoleColumn<AuditEvent>[] = [
  { header: "Time", cell: (e) => formatDateTime(e.createdAt) },
  { header: "Who", cell: (e) => `${e.actorLabel} (${ACTOR_LABELS[e.actorType] ?? e.actorType})` },
  { header: "Action", cell: (e) => <code>{e.action}</code> },
  { header: "Target", cell: (e) => (e.targetId ? `${e.targetType} ${e.targetId}` : e.targetType) },
  { header: "Changes", cell: (e) => <Changes summary={e.summary} /> },
  { header: "From", cell: (e) => [e.ip, e.requestId ? `request ${e.requestId}` : null].filter(Boolean).join(", ") || "—" },
];

export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(PATH, "audit:read");
  const { filters, page, refused } = await consoleAuditList({ schoolId: staff.school.id, query: params });
  return (
    <ConsoleShell staff={staff} current={PATH} title="Audit log">
      <p>Every change to this school, by staff here, API keys, apps, the command line and system jobs, newest first. Rows are kept for 400 days.</p>
      <form className="console-filters" method="get" action={PATH} role="search" aria-label="Filter the audit log">
        <SelectField label="Who" name="actor" defaultValue={filters.actor} none="Anyone" options={AUDIT_ACTOR_TYPES.map((t) => ({ value: t, label: ACTOR_LABELS[t] ?? t }))} />
        <label>
          Action (e.g. subscription.cancel)
          <input type="text" name="action" defaultValue={filters.action} maxLength={200} autoComplete="off" spellCheck={false} />
        </label>
        <label>
          Target id
          <input type="text" name="target" defaultValue={filters.target} maxLength={200} autoComplete="off" spellCheck={false} />
        </label>
        <label>
          From (YYYY-MM-DD)
          <input type="text" name="from" defaultValue={filters.from} maxLength={10} inputMode="numeric" pattern="\d{4}-\d{2}-\d{2}" placeholder="2026-01-31" />
        </label>
        <label>
          To (YYYY-MM-DD)
          <input type="text" name="to" defaultValue={filters.to} maxLength={10} inputMode="numeric" pattern="\d{4}-\d{2}-\d{2}" placeholder="2026-12-31" />
        </label>
        <SubmitButton label="Filter" row />
      </form>
      <PageAlert text={refused} />
      <ConsoleTable caption="Audit log" columns={COLUMNS} rows={page.nodes} rowKey={(e) => e.id} empty={Object.values(filters).some(Boolean) ? "No changes match." : "No changes yet: they appear here as staff, keys, apps and jobs make them."} />
      <NextPageLink path={PATH} pageInfo={page.pageInfo} query={{ ...filters }} />
    </ConsoleShell>
  );
}
