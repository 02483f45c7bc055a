import { SCOPE_DESCRIPTIONS, SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { listSchoolApps } from "@/lib/oauth/school-apps/list-school-apps";
import { APPS_PATH, appPath } from "@/lib/console/settings-actions";
import { ConsoleForm, ConsoleShell, StepUpField, consoleMetadata, consolePage, formatDateTime, pageNotice, type Search } from "../_components/console";
import { KIND_LABELS, SecretOnce, SettingsButton, pageSecret } from "../_components/settings";
import { settingsAction } from "../_components/settings-actions";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Apps");

export default async function AppsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(APPS_PATH, "apps:manage");
  const [apps, notice, secret] = await Promise.all([listSchoolApps({ schoolId: staff.school.id }), pageNotice(staff, params), pageSecret(staff, params)]);
  return (
    <ConsoleShell staff={staff} current={APPS_PATH} title="Apps" notice={notice}>
      <p>Apps sign members in with OAuth and act with the access each member grants them.</p>
      <SecretOnce secret={secret} label="The app's client secret">
        <p className="meta">The app sends it with its client_id to the token endpoint (HTTP Basic, or client_secret in the form).</p>
      </SecretOnce>
      <section aria-labelledby="apps-list">
        <h2 id="apps-list">Apps</h2>
        {apps.length === 0 ? (
          <p>No apps yet.</p>
        ) : (
          <div className="table-scroll">
            <table className="console-table">
              <caption className="visually-hidden">Apps</caption>
              <thead>
                <tr>
                  <th scope="col">App</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Connections</th>
                  <th scope="col">Last connected</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {apps.map((a) => (
                  <tr key={a.clientId}>
                    <td>
                      <a href={appPath(a.clientId)}>{a.name}</a>
                      <br />
                      <code>{a.clientId}</code>
                    </td>
                    <td>
                      {KIND_LABELS[a.kind]}
                      {a.vendor ? ` (${a.vendor})` : ""}
                    </td>
                    <td>{a.liveGrants}</td>
                    <td>{formatDateTime(a.lastGrantAt)}</td>
                    <td>{a.revokedAt ? "Revoked" : "Active"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="apps-create">
        <h2 id="apps-create">Register a confidential app</h2>
        <ConsoleForm action={settingsAction.bind(null, "app-create", "")} label="Register a confidential app">
          <label>
            Name
            <input type="text" name="name" required maxLength={200} autoComplete="off" />
          </label>
          <label>
            Redirect URIs (one per line: https, or http on a loopback address)
            <textarea name="redirectUris" required rows={3} maxLength={4096} />
          </label>
          <fieldset>
            <legend>Scopes the app may ask for</legend>
            {SUPPORTED_SCOPES.map((s) => (
              <label key={s} className="check">
                <input type="checkbox" name="scopes" value={s} /> <code>{s}</code>: {SCOPE_DESCRIPTIONS[s]}
              </label>
            ))}
          </fieldset>
          <StepUpField staff={staff} id="app-create" />
          <div>
            <button className="button" type="submit">
              Register app
            </button>
          </div>
        </ConsoleForm>
      </section>
      <section aria-labelledby="apps-cimd">
        <h2 id="apps-cimd">Apps identified by a metadata document</h2>
        <p>
          Apps such as AI assistants can connect without being registered: they name an https document that describes them, and members see its host before they agree.
          {staff.school.cimdAllowed ? " They are allowed at this school." : " They are turned off at this school."}
        </p>
        {staff.school.cimdAllowed ? (
          <SettingsButton action="apps-cimd" label="Turn them off (ends their connections)" fields={{ allowed: "no" }} secondary>
            <StepUpField staff={staff} id="cimd-off" />
          </SettingsButton>
        ) : (
          <SettingsButton action="apps-cimd" label="Allow them again" fields={{ allowed: "yes" }} secondary>
            <StepUpField staff={staff} id="cimd-on" />
          </SettingsButton>
        )}
      </section>
    </ConsoleShell>
  );
}
