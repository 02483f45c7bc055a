import { notFound } from "next/navigation";
import { listClientGrants } from "@/lib/oauth/school-apps/list-client-grants";
import { listSchoolApps } from "@/lib/oauth/school-apps/list-school-apps";
import { APPS_PATH, clientIdFromPath } from "@/lib/console/settings-actions";
import { ConsoleForm, ConsoleShell, StepUpField, consoleMetadata, consolePage, formatDateTime, pageNotice, type Search } from "../../_components/console";
import { KIND_LABELS, SecretOnce, SettingsButton, pageSecret } from "../../_components/settings";
import { settingsAction } from "../../_components/settings-actions";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("App");

export default async function AppPage({ params: routeParams, searchParams }: { params: Promise<{ client: string }>; searchParams: Search }) {
  const [{ client }, params] = await Promise.all([routeParams, searchParams]);
  const staff = await consolePage(APPS_PATH, "apps:manage");
  const clientId = clientIdFromPath(client);
  if (!clientId) notFound();
  const app = (await listSchoolApps({ schoolId: staff.school.id })).find((a) => a.clientId === clientId);
  if (!app) notFound();
  const [grants, notice, secret] = await Promise.all([listClientGrants({ schoolId: staff.school.id, clientId }), pageNotice(staff, params), pageSecret(staff, params)]);
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
              <div>
                <button className="button secondary" type="submit">
                  Rotate secret
                </button>
              </div>
            </ConsoleForm>
          ) : null}
          <SettingsButton action="app-revoke" target={clientId} label={app.kind === "school_client" ? "Revoke this app" : "End its connections at this school"} secondary>
            <StepUpField staff={staff} id="app-revoke" />
          </SettingsButton>
        </div>
      ) : null}
      <section aria-labelledby="grants">
        <h2 id="grants">Connections</h2>
        {grants.length === 0 ? (
          <p>No member has this app connected.</p>
        ) : (
          <div className="table-scroll">
            <table className="console-table">
              <caption className="visually-hidden">Members who connected {app.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Connected</th>
                  <th scope="col">Last token</th>
                </tr>
              </thead>
              <tbody>
                {grants.map((g) => (
                  <tr key={g.grantId}>
                    <td>
                      <a href={`/manage/members/${g.userId}`}>{g.name || g.email}</a>
                    </td>
                    <td>{g.scope}</td>
                    <td>{formatDateTime(g.createdAt)}</td>
                    <td>{formatDateTime(g.lastTokenAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </ConsoleShell>
  );
}
