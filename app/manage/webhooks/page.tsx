import { MAX_ENDPOINT_DESCRIPTION_LENGTH, MAX_ENDPOINT_URL_LENGTH } from "@/lib/webhooks/endpoint-input";
import { listWebhookEndpoints } from "@/lib/webhooks/list-endpoints";
import { WEBHOOKS_PATH, webhookPath } from "@/lib/console/settings-actions";
import { ConsoleForm, ConsoleShell, StepUpField, consoleMetadata, consolePage, pageNotice, type Search } from "../_components/console";
import { SecretOnce, pageSecret } from "../_components/settings";
import { settingsAction } from "../_components/settings-actions";
import { EventsField } from "./events-field";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Webhooks");

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(WEBHOOKS_PATH, "webhooks:manage");
  const [endpoints, notice, secret] = await Promise.all([listWebhookEndpoints({ schoolId: staff.school.id }), pageNotice(staff, params), pageSecret(staff, params)]);
  return (
    <ConsoleShell staff={staff} current={WEBHOOKS_PATH} title="Webhooks" notice={notice}>
      <p>Endpoints receive a signed HTTPS request for each event they listen to (Standard Webhooks headers).</p>
      <SecretOnce secret={secret} label="The endpoint's signing secret">
        <p className="meta">Your receiver verifies the webhook-signature header of each request with it.</p>
      </SecretOnce>
      <section aria-labelledby="endpoints-list">
        <h2 id="endpoints-list">Endpoints</h2>
        {endpoints.length === 0 ? (
          <p>No endpoints yet.</p>
        ) : (
          <ul className="account-items">
            {endpoints.map((e) => (
              <li key={e.id} className="card">
                <h3>
                  <a href={webhookPath(e.id)}>{e.url}</a>
                </h3>
                <p className="meta">
                  {e.disabledAt ? `Disabled: ${e.disabledReason ?? ""}` : "Enabled"} · {e.events.includes("*") ? "every event" : e.events.join(", ")}
                  {e.description ? ` · ${e.description}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="endpoint-create">
        <h2 id="endpoint-create">Add an endpoint</h2>
        <ConsoleForm action={settingsAction.bind(null, "webhook-create", "")} label="Add a webhook endpoint">
          <label>
            URL (https)
            <input type="url" name="url" required maxLength={MAX_ENDPOINT_URL_LENGTH} autoComplete="off" />
          </label>
          <label>
            Description (optional)
            <input type="text" name="description" maxLength={MAX_ENDPOINT_DESCRIPTION_LENGTH} autoComplete="off" />
          </label>
          <EventsField selected={[]} />
          <StepUpField staff={staff} id="webhook-create" />
          <div>
            <button className="button" type="submit">
              Add endpoint
            </button>
          </div>
        </ConsoleForm>
      </section>
    </ConsoleShell>
  );
}
