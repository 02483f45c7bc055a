import { SCOPE_DESCRIPTIONS, SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { listSchoolApps, type SchoolApp } from "@/lib/oauth/school-apps/list-school-apps";
import { APPS_PATH, appPath } from "@/lib/console/settings-actions";
import { ConsoleForm, ConsoleShell, StepUpField, SubmitButton, consoleMetadata, consolePage, formatDateTime, type Search } from "../_components/console";
import { ConsoleSection, ConsoleTable, type ConsoleColumn } from "../_components/lists";
import { KIND_LABELS, SecretOnce, SettingsButton, pageFeedback } from "../_components/settings";
import { settingsAction } from "../_components/settings-actions";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Apps");

const APP_COLUMNS: ConsoleColumn<SchoolApp>[] = [
  {
    header: "App",
    cell: (a) => (
      <>
        <a href={appPath(a.clientId)}>{a.name}</a>
        <br />
        <code>{a.clientId}</code>
      </>
    ),
  },
  { header: "Kind", cell: (a) => `${KIND_LABELS[a.kind]}${a.vendor ? ` (${a.vendor})` : ""}` },
  { header: "Connections", cell: (a) => a.liveGrants },
  { header: "Last connected", cell: (a) => formatDateTime(a.lastGrantAt) },
  { header: "Status", cell: (a) => (a.revokedAt ? "Revoked" : "Active") },
];

export default async function AppsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(APPS_PATH, "apps:manage");
  const [apps, { notice, secret }] = await Promise.all([listSchoolApps({ schoolId: staff.school.id }), pageFeedback(staff, params)]);
  return (
    <ConsoleShell staff={staff} current={APPS_PATH} title="Apps" notice={notice}>
      <p>Apps sign members in with OAuth and act with the access each member grants them.</p>
      <SecretOnce secret={secret} label="The app's client secret">
        <p className="meta">The app sends it with its client_id to the token endpoint (HTTP Basic, or client_secret in the form).</p>
      </SecretOnce>
      <ConsoleSection id="apps-list" title="Apps">
        <ConsoleTable caption="Apps" columns={APP_COLUMNS} rows={apps} rowKey={(a) => a.clientId} empty="No apps yet." />
      </ConsoleSection>
      <ConsoleSection id="apps-create" title="Register a confidential app">
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
          <SubmitButton label="Register app" row />
        </ConsoleForm>
      </ConsoleSection>
      <ConsoleSection id="apps-cimd" title="Apps identified by a metadata document">
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
      </ConsoleSection>
    </ConsoleShell>
  );
}
