// What the console's endpoint and app pages read (/manage/webhooks/<id>, /manage/apps/<client>):
// one of this school's webhook endpoints with its latest deliveries, one of this school's apps with
// its connections. An id from the address that is no such thing of this school (another school's,
// or not an id at all) reads nothing: the page answers 404.
import { isUuid } from "../core/ids";
import { db } from "../db/client";
import { listClientGrants } from "../oauth/school-apps/list-client-grants";
import { listSchoolApps } from "../oauth/school-apps/list-school-apps";
import { listWebhookDeliveries } from "../webhooks/list-deliveries";
import { clientIdFromPath } from "./settings-actions";

/** Deliveries shown on an endpoint's page, newest first. */
const DELIVERIES_SHOWN = 50;

export async function webhookEndpointView(o: { schoolId: string; id: string }) {
  if (!isUuid(o.id)) return null;
  const endpoint = await db().webhookEndpoint.findFirst({ where: { id: o.id, schoolId: o.schoolId } });
  if (!endpoint) return null;
  const deliveries = await listWebhookDeliveries({ schoolId: o.schoolId, filter: { endpointId: endpoint.id, first: DELIVERIES_SHOWN } });
  return { endpoint, deliveries };
}

/** `segment`: the app's path segment (its client id, base64url-encoded: settings-actions.ts, appPath). */
export async function schoolAppView(o: { schoolId: string; segment: string }) {
  const clientId = clientIdFromPath(o.segment);
  if (!clientId) return null;
  const app = (await listSchoolApps({ schoolId: o.schoolId })).find((a) => a.clientId === clientId);
  if (!app) return null;
  const grants = await listClientGrants({ schoolId: o.schoolId, clientId });
  return { clientId, app, grants };
}
