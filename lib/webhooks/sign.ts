import { Webhook } from "standardwebhooks";
import type { WebhookEndpoint } from "../db/generated/client";
import { decryptWebhookSecret } from "./secret";

/**
 * The Standard Webhooks headers of one request. webhook-signature carries one `v1,…` signature per
 * valid secret, space-separated: the current one, and the one a rotation replaced while its overlap
 * lasts, so receivers holding either verify.
 */
export function signDelivery(options: {
  endpoint: Pick<WebhookEndpoint, "secretCiphertext" | "previousSecretCiphertext" | "previousSecretExpiresAt">;
  eventId: string;
  body: string;
  /** When the request is sent (the receiver checks it against its own clock). */
  sentAt: Date;
  /** The scheduling clock, which decides whether the previous secret still signs. */
  now: Date;
  authSecret: string;
}): Record<string, string> {
  const { endpoint, eventId, body, sentAt, now, authSecret } = options;
  const secrets = [endpoint.secretCiphertext];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(endpoint.previousSecretCiphertext);
  }
  const signature = secrets.map((s) => new Webhook(decryptWebhookSecret(s, authSecret)).sign(eventId, sentAt, body)).join(" ");
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
