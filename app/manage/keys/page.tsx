import { now } from "@/lib/clock";
import { listApiKeys } from "@/lib/credentials/api-keys/list-api-keys";
import { MAX_KEY_NAME_LENGTH, type ApiKeyRecord } from "@/lib/credentials/api-keys/key-input";
import { ALL_PERMISSIONS } from "@/lib/credentials/permissions";
import { ALL_PERMISSIONS_LABEL, PERMISSION_GROUPS, PERMISSION_LABELS, describePermissions } from "@/lib/credentials/permission-labels";
import { KEYS_PATH } from "@/lib/console/settings-actions";
import type { ConsoleStaff } from "@/lib/console/access";
import { ConsoleForm, ConsoleShell, StepUpField, SubmitButton, consoleMetadata, consolePage, formatDate, formatDateTime, type Search } from "../_components/console";
import { ConsoleSection, ConsoleTable, type ConsoleColumn } from "../_components/lists";
import { SecretOnce, SettingsButton, pageFeedback } from "../_components/settings";
import { settingsAction } from "../_components/settings-actions";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("API keys");

const STATUS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

function keyColumns(staff: ConsoleStaff): ConsoleColumn<ApiKeyRecord>[] {
  return [
    { header: "Name", cell: (k) => k.name },
    { header: "Prefix", cell: (k) => <code>{k.prefix}</code> },
    { header: "Status", cell: (k) => STATUS[k.status] },
    { header: "Permissions", cell: (k) => describePermissions(k.permissions) },
    { header: "Last used", cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never") },
    { header: "Expires", cell: (k) => (k.expiresAt ? formatDate(k.expiresAt) : "Never") },
    {
      header: "Actions",
      cell: (k) =>
        k.status === "active" ? (
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
        ),
    },
  ];
}

export default async function KeysPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(KEYS_PATH, "keys:manage");
  const [keys, { notice, secret }] = await Promise.all([listApiKeys({ schoolId: staff.school.id, now: now() }), pageFeedback(staff, params)]);
  return (
    <ConsoleShell staff={staff} current={KEYS_PATH} title="API keys" notice={notice}>
      <p>Keys let your own systems call the Admin API and MCP server. Each key can run only the operations ticked for it.</p>
      <SecretOnce secret={secret} label="Your new API key">
        <p className="meta">Send it in the X-Service-API-Key header of each Admin API request.</p>
      </SecretOnce>
      <ConsoleSection id="keys-list" title="Keys">
        <ConsoleTable caption="API keys" columns={keyColumns(staff)} rows={keys} rowKey={(k) => k.id} empty="This school has no API keys yet." />
      </ConsoleSection>
      <ConsoleSection id="keys-create" title="Create a key">
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
          <SubmitButton label="Create key" row />
        </ConsoleForm>
      </ConsoleSection>
    </ConsoleShell>
  );
}
