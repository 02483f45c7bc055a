import { notFound } from "next/navigation";
import { MAX_ENDPOINT_DESCRIPTION_LENGTH, MAX_ENDPOINT_URL_LENGTH } from "@/lib/webhooks/endpoint-input";
import { WEBHOOKS_PATH, webhookPath } from "@/lib/console/settings-actions";
import { webhookEndpointView } from "@/lib/console/settings-views";
import type { DeliveryRecord } from "@/lib/webhooks/presenter";
import { ConsoleForm, ConsoleShell, StepUpField, SubmitButton, consoleMetadata, consolePage, formatDateTime, type Search } from "../../_components/console";
import { CardList, ConsoleSection, ConsoleTable, type ConsoleColumn } from "../../_components/lists";
import { SecretOnce, SettingsButton, pageFeedback } from "../../_components/settings";
import { settingsAction } from "../../_components/settings-actions";
import { EventsField } from "../events-field";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Webhook endpoint");

const ATTEMPT_COLUMNS: ConsoleColumn<DeliveryRecord["attempts"][number]>[] = [
  { header: "Sent", cell: (a) => formatDateTime(a.attemptedAt) },
  { header: "Status", cell: (a) => a.statusCode ?? "no answer" },
  { header: "Duration", cell: (a) => `${a.durationMs} ms` },
  {
    header: "Response",
    cell: (a) => (
      <>
        {a.error ? <span>{a.error}</span> : null}
        {a.responseExcerpt ? <pre className="excerpt">{a.responseExcerpt}</pre> : null}
      </>
    ),
  },
];

export default async function WebhookPage({ params: routeParams, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const [{ id }, params] = await Promise.all([routeParams, searchParams]);
  const staff = await consolePage(WEBHOOKS_PATH, "webhooks:manage");
  const view = await webhookEndpointView({ schoolId: staff.school.id, id });
  if (!view) notFound();
  const { endpoint, deliveries } = view;
  const { notice, secret } = await pageFeedback(staff, params);
  return (
    <ConsoleShell staff={staff} current={WEBHOOKS_PATH} title="Webhook endpoint" notice={notice}>
      <p>
        <a href={WEBHOOKS_PATH}>All endpoints</a>
      </p>
      <SecretOnce secret={secret} label="The new signing secret">
        <p className="meta">The previous secret also signs for 24 hours, so your receiver can switch without losing a delivery.</p>
      </SecretOnce>
      <p>
        <strong>{endpoint.url}</strong> · {endpoint.disabledAt ? `Disabled: ${endpoint.disabledReason ?? ""}` : "Enabled"}
        {endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date() ? ` · previous secret signs until ${formatDateTime(endpoint.previousSecretExpiresAt)}` : ""}
      </p>
      <div className="console-actions">
        {endpoint.disabledAt ? (
          <SettingsButton action="webhook-enable" target={id} label="Enable" />
        ) : (
          <>
            <SettingsButton action="webhook-test" target={id} label="Send test event" />
            <SettingsButton action="webhook-disable" target={id} label="Disable" secondary />
          </>
        )}
        <SettingsButton action="webhook-rotate" target={id} label="Rotate signing secret" secondary>
          <StepUpField staff={staff} id="webhook-rotate" />
        </SettingsButton>
      </div>
      <ConsoleSection id="endpoint-edit" title="Edit">
        <ConsoleForm action={settingsAction.bind(null, "webhook-update", id)} label="Edit the endpoint">
          <label>
            URL (https)
            <input type="url" name="url" required maxLength={MAX_ENDPOINT_URL_LENGTH} defaultValue={endpoint.url} autoComplete="off" />
          </label>
          <label>
            Description
            <input type="text" name="description" maxLength={MAX_ENDPOINT_DESCRIPTION_LENGTH} defaultValue={endpoint.description} autoComplete="off" />
          </label>
          <EventsField selected={endpoint.events} />
          <SubmitButton label="Save" row />
        </ConsoleForm>
      </ConsoleSection>
      <ConsoleSection id="deliveries" title="Deliveries">
        <CardList
          items={deliveries}
          itemKey={(d) => d.id}
          empty="Nothing was sent to this endpoint yet."
          card={(d) => (
            <>
              <h3>
                <code>{d.event.type}</code> · {d.status}
              </h3>
              <p className="meta">
                Event {d.eventId} · {formatDateTime(d.createdAt)} · {d.attemptCount} attempt(s)
                {d.status === "pending" && d.nextAttemptAt ? ` · next ${formatDateTime(d.nextAttemptAt)}` : ""}
              </p>
              <ConsoleTable caption={`Attempts of event ${d.eventId}`} columns={ATTEMPT_COLUMNS} rows={d.attempts} rowKey={(a) => a.id} empty={null} />
              <SettingsButton action="webhook-replay" target={id} label={`Replay ${d.event.type}`} fields={{ event: d.eventId }} secondary />
            </>
          )}
        />
      </ConsoleSection>
      <ConsoleSection id="endpoint-delete" title="Delete">
        <ConsoleForm action={settingsAction.bind(null, "webhook-delete", id)} label="Delete the endpoint">
          <label className="check">
            <input type="checkbox" name="confirm" value="yes" required /> Delete this endpoint and its deliveries (the events stay)
          </label>
          <SubmitButton label="Delete endpoint" secondary row />
        </ConsoleForm>
      </ConsoleSection>
      <p className="meta">
        <a href={webhookPath(id)}>Refresh the deliveries</a>
      </p>
    </ConsoleShell>
  );
}
