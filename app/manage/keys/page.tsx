import { now } from "@/lib/clock";
import { listApiKeys } from "@/lib/credentials/api-keys/list-api-keys";
import { MAX_KEY_NAME_LENGTH } from "@/lib/credentials/api-keys/key-input";
import { ALL_PERMISSIONS } from "@/lib/credentials/permissions";
import { ALL_PERMISSIONS_LABEL, PERMISSION_GROUPS, PERMISSION_LABELS, describePermissions } from "@/lib/credentials/permission-labels";
import { KEYS_PATH } from "@/lib/console/settings-actions";
import { ConsoleForm, ConsoleShell, StepUpField, consoleMetadata, consolePage, formatDate, formatDateTime, pageNotice, type Search } from "../_components/console";
import { SecretOnce, SettingsButton, pageSecret } from "../_components/settings";
import { settingsAction } from "../_components/settings-actions";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("API keys");

const STATUS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

export default async function KeysPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(KEYS_PATH, "keys:manage");
  const [keys, notice, secret] = await Promise.all([listApiKeys({ schoolId: staff.school.id, now: now() }), pageNotice(staff, params), pageSecret(staff, params)]);
  return (
    <ConsoleShell staff={staff} current={KEYS_PATH} title="API keys" notice={notice}>
      <p>Keys let your own systems call the Admin API and MCP server. Each key can run only the operations ticked for it.</p>
      <SecretOnce secret={secret} label="Your new API key">
        <p className="meta">Send it in the X-Service-API-Key header of each Admin API request.</p>
      </SecretOnce>
      <section aria-labelledby="keys-list">
        <h2 id="keys-list">Keys</h2>
        {keys.length === 0 ? (
          <p>This school has no API keys yet.</p>
        ) : (
          <div className="table-scroll">
            <table className="console-table">
              <caption className="visually-hidden">API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Status</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}</code>
                    </td>
                    <td>{STATUS[k.status]}</td>
                    <td>{describePermissions(k.permissions)}</td>
                    <td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never"}</td>
                    <td>{k.expiresAt ? formatDate(k.expiresAt) : "Never"}</td>
                    <td>
                      {k.status === "active" ? (
                        <div className="console-actions">
                          <SettingsButton action="key-rotate" label={`Rotate ${k.name}`} fields={{ key: k.id }} secondary>
                            <StepUpField staff={staff} id={`rotate-${k.id}`} />
                          </SettingsButton>
                          <SettingsButton action="key-revoke" label={`Revoke ${k.name}`} fields={{ key: k.id }} secondary>
                            <StepUpField staff={staff} id={`revoke-${k.id}`} />
                          </SettingsButton>
                        </div>
                      ) : (
                        "—"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="keys-create">
        <h2 id="keys-create">Create a key</h2>
        <ConsoleForm action={settingsAction.bind(null, "key-create", "")} label="Create an API key">
          <label>
            Name
            <input type="text" name="name" required maxLength={MAX_KEY_NAME_LENGTH} autoComplete="off" />
          </label>
          <fieldset>
            <legend>All</legend>
            <label className="check">
              <input type="checkbox" name="permissions" value={ALL_PERMISSIONS} /> {ALL_PERMISSIONS_LABEL}
            </label>
            <p className="meta">Otherwise the key runs only the operations ticked below, and operations added later are not given to it.</p>
          </fieldset>
          {PERMISSION_GROUPS.map((group) => (
            <fieldset key={group.title}>
              <legend>{group.title}</legend>
              {group.operations.map((op) => (
                <label key={op} className="check">
                  <input type="checkbox" name="permissions" value={op} /> {PERMISSION_LABELS[op]}
                </label>
              ))}
            </fieldset>
          ))}
          <label>
            Expires on (optional, YYYY-MM-DD)
            <input type="date" name="expiresOn" />
          </label>
          <StepUpField staff={staff} id="key-create" />
          <div>
            <button className="button" type="submit">
              Create key
            </button>
          </div>
        </ConsoleForm>
      </section>
    </ConsoleShell>
  );
}
