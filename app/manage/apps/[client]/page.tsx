import { notFound } from "next/navigation";
import type { ClientGrant } from "@/lib/oauth/school-apps/list-client-grants";
import { APPS_PATH } from "@/lib/console/settings-actions";
import { schoolAppView } from "@/lib/console/settings-views";
import { ConsoleForm, ConsoleShell, StepUpField, SubmitButton, consoleMetadata, consolePage, formatDateTime, type Search } from "../../_components/console";
import { ConsoleSection, ConsoleTable, type ConsoleColumn } from "../../_components/lists";
import { KIND_LABELS, SecretOnce, SettingsButton, pageFeedback } from "../../_components/settings";
import { settingsAction } from "../../_components/settings-actions";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("App");

const GRANT_COLUMNS: ConsoleColumn<ClientGrant>[] = [
  { header: "Member", cell: (g) => <a href={`/manage/members/${g.userId}`}>{g.name || g.email}</a> },
  { header: "Scopes", cell: (g) => g.scope },
  { header: "Connected", cell: (g) => formatDateTime(g.createdAt) },
  { header: "Last token", cell: (g) => formatDateTime(g.lastTokenAt) },
];

export default async function AppPage({ params: routeParams, searchParams }: { params: Promise<{ client: string }>; searchParams: Search }) {
  const [{ client }, params] = await Promise.all([routeParams, searchParams]);
  const staff = await consolePage(APPS_PATH, "apps:manage");
  const view = await schoolAppView({ schoolId: staff.school.id, segment: client });
  if (!view) notFound();
  const { clientId, app, grants } = view;
  const { notice, secret } = await pageFeedback(staff, params);
  const hasSecret = app.kind === "school_client" && (app.authMethod === "client_secret_basic" || app.authMethod === "client_secret_post");
  return (
    <ConsoleShell staff={staff} current={APPS_PATH} title={app.name} notice={notice}>
      <p>
        <a href={APPS_PATH}>All apps</a>
      </p>
      <SecretOnce secret={secret} label="The new client secret" />
      <dl className="console-facts">
        <dt>client_id</dt>
        <dd>
          <code>{app.clientId}</code>
        </dd>
        <dt>Kind</dt>
        <dd>{KIND_LABELS[app.kind]}</dd>
        <dt>Status</dt>
        <dd>{app.revokedAt ? `Revoked ${formatDateTime(app.revokedAt)}` : "Active"}</dd>
        {app.redirectUris.length ? (
          <>
            <dt>Redirect URIs</dt>
            <dd>{app.redirectUris.join(", ")}</dd>
          </>
        ) : null}
        {app.scope ? (
          <>
            <dt>Scopes</dt>
            <dd>{app.scope}</dd>
          </>
        ) : null}
        {app.previousSecretValidUntil && app.previousSecretValidUntil > new Date() ? (
          <>
            <dt>Previous secret</dt>
            <dd>works until {formatDateTime(app.previousSecretValidUntil)}</dd>
          </>
        ) : null}
      </dl>
      {!app.revokedAt ? (
        <div className="console-actions">
          {hasSecret ? (
            <ConsoleForm action={settingsAction.bind(null, "app-rotate", clientId)} label="Rotate the client secret">
              <label className="check">
                <input type="checkbox" name="endOldNow" value="yes" /> The old secret leaked: stop it now (otherwise it works 24 hours more)
              </label>
              <StepUpField staff={staff} id="app-rotate" />
              <SubmitButton label="Rotate secret" secondary row />
            </ConsoleForm>
          ) : null}
          <SettingsButton action="app-revoke" target={clientId} label={app.kind === "school_client" ? "Revoke this app" : "End its connections at this school"} secondary>
            <StepUpField staff={staff} id="app-revoke" />
          </SettingsButton>
        </div>
      ) : null}
      <ConsoleSection id="grants" title="Connections">
        <ConsoleTable caption={`Members who connected ${app.name}`} columns={GRANT_COLUMNS} rows={grants} rowKey={(g) => g.grantId} empty="No member has this app connected." />
      </ConsoleSection>
    </ConsoleShell>
  );
}
