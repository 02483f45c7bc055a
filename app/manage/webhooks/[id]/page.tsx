import { notFound } from "next/navigation";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import { MAX_ENDPOINT_DESCRIPTION_LENGTH, MAX_ENDPOINT_URL_LENGTH } from "@/lib/webhooks/endpoint-input";
import { listWebhookDeliveries } from "@/lib/webhooks/list-deliveries";
import { WEBHOOKS_PATH, webhookPath } from "@/lib/console/settings-actions";
import { ConsoleForm, ConsoleShell, StepUpField, consoleMetadata, consolePage, formatDateTime, pageNotice, type Search } from "../../_components/console";
import { SecretOnce, SettingsButton, pageSecret } from "../../_components/settings";
import { settingsAction } from "../../_components/settings-actions";
import { EventsField } from "../events-field";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Webhook endpoint");

export default async function WebhookPage({ params: routeParams, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const [{ id }, params] = await Promise.all([routeParams, searchParams]);
  const staff = await consolePage(WEBHOOKS_PATH, "webhooks:manage");
  if (!isUuid(id)) notFound();
  const endpoint = await db().webhookEndpoint.findFirst({ where: { id, schoolId: staff.school.id } });
  if (!endpoint) notFound();
  const [deliveries, notice, secret] = await Promise.all([
    listWebhookDeliveries({ schoolId: staff.school.id, filter: { endpointId: id, first: 50 } }),
    pageNotice(staff, params),
    pageSecret(staff, params),
  ]);
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
      <section aria-labelledby="endpoint-edit">
        <h2 id="endpoint-edit">Edit</h2>
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
          <div>
            <button className="button" type="submit">
              Save
            </button>
          </div>
        </ConsoleForm>
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        {deliveries.length === 0 ? (
          <p>Nothing was sent to this endpoint yet.</p>
        ) : (
          <ul className="account-items">
            {deliveries.map((d) => (
              <li key={d.id} className="card">
                <h3>
                  <code>{d.event.type}</code> · {d.status}
                </h3>
                <p className="meta">
                  Event {d.eventId} · {formatDateTime(d.createdAt)} · {d.attemptCount} attempt(s)
                  {d.status === "pending" && d.nextAttemptAt ? ` · next ${formatDateTime(d.nextAttemptAt)}` : ""}
                </p>
                {d.attempts.length ? (
                  <div className="table-scroll">
                    <table className="console-table">
                      <caption className="visually-hidden">Attempts of event {d.eventId}</caption>
                      <thead>
                        <tr>
                          <th scope="col">Sent</th>
                          <th scope="col">Status</th>
                          <th scope="col">Duration</th>
                          <th scope="col">Response</th>
                        </tr>
                      </thead>
                      <tbody>
                        {d.attempts.map((a) => (
                          <tr key={a.id}>
                            <td>{formatDateTime(a.attemptedAt)}</td>
                            <td>{a.statusCode ?? "no answer"}</td>
                            <td>{a.durationMs} ms</td>
                            <td>
                              {a.error ? <span>{a.error}</span> : null}
                              {a.responseExcerpt ? <pre className="excerpt">{a.responseExcerpt}</pre> : null}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                ) : null}
                <SettingsButton action="webhook-replay" target={id} label={`Replay ${d.event.type}`} fields={{ event: d.eventId }} secondary />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="endpoint-delete">
        <h2 id="endpoint-delete">Delete</h2>
        <ConsoleForm action={settingsAction.bind(null, "webhook-delete", id)} label="Delete the endpoint">
          <label className="check">
            <input type="checkbox" name="confirm" value="yes" required /> Delete this endpoint and its deliveries (the events stay)
          </label>
          <div>
            <button className="button secondary" type="submit">
              Delete endpoint
            </button>
          </div>
        </ConsoleForm>
      </section>
      <p className="meta">
        <a href={webhookPath(id)}>Refresh the deliveries</a>
      </p>
    </ConsoleShell>
  );
}
