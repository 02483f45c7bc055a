import { MAX_ENDPOINT_DESCRIPTION_LENGTH, MAX_ENDPOINT_URL_LENGTH } from "@/lib/webhooks/endpoint-input";
import { listWebhookEndpoints } from "@/lib/webhooks/list-endpoints";
import { WEBHOOKS_PATH, webhookPath } from "@/lib/console/settings-actions";
import { ConsoleForm, ConsoleShell, StepUpField, SubmitButton, consoleMetadata, consolePage, type Search } from "../_components/console";
import { CardList, ConsoleSection } from "../_components/lists";
import { SecretOnce, pageFeedback } from "../_components/settings";
import { settingsAction } from "../_components/settings-actions";
import { EventsField } from "./events-field";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Webhooks");

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const staff = await consolePage(WEBHOOKS_PATH, "webhooks:manage");
  const [endpoints, { notice, secret }] = await Promise.all([listWebhookEndpoints({ schoolId: staff.school.id }), pageFeedback(staff, params)]);
  return (
    <ConsoleShell staff={staff} current={WEBHOOKS_PATH} title="Webhooks" notice={notice}>
      <p>Endpoints receive a signed HTTPS request for each event they listen to (Standard Webhooks headers).</p>
      <SecretOnce secret={secret} label="The endpoint's signing secret">
        <p className="meta">Your receiver verifies the webhook-signature header of each request with it.</p>
      </SecretOnce>
      <ConsoleSection id="endpoints-list" title="Endpoints">
        <CardList
          items={endpoints}
          itemKey={(e) => e.id}
          empty="No endpoints yet."
          card={(e) => (
            <>
              <h3>
                <a href={webhookPath(e.id)}>{e.url}</a>
              </h3>
              <p className="meta">
                {e.disabledAt ? `Disabled: ${e.disabledReason ?? ""}` : "Enabled"} · {e.events.includes("*") ? "every event" : e.events.join(", ")}
                {e.description ? ` · ${e.description}` : ""}
              </p>
            </>
          )}
        />
      </ConsoleSection>
      <ConsoleSection id="endpoint-create" title="Add an endpoint">
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
          <SubmitButton label="Add endpoint" row />
        </ConsoleForm>
      </ConsoleSection>
    </ConsoleShell>
  );
}
