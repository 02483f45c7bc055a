import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { decryptWebhookSecret, encryptWebhookSecret, generateWebhookSecret } from "./secret";

const AUTH = "an-auth-secret-of-at-least-32-characters!";

describe("webhook secrets", () => {
  it("are whsec_ secrets the standardwebhooks library accepts, different every time", () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(generateWebhookSecret()).not.toBe(a);
    const body = '{"type":"member.created"}';
    const at = new Date();
    const signature = new Webhook(a).sign("msg_1", at, body);
    expect(new Webhook(a).verify(body, { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature })).toEqual({
      type: "member.created",
    });
  });

  it("are stored encrypted: the ciphertext does not contain the secret, differs per call, and reads back only under the same AUTH_SECRET", () => {
    const secret = generateWebhookSecret();
    const stored = encryptWebhookSecret(secret, AUTH);
    expect(stored).not.toContain(secret.slice(6));
    expect(encryptWebhookSecret(secret, AUTH)).not.toBe(stored);
    expect(decryptWebhookSecret(stored, AUTH)).toBe(secret);
    expect(() => decryptWebhookSecret(stored, `${AUTH}x`)).toThrow();
    const at = stored.length - 2;
    const tampered = stored.slice(0, at) + (stored[at] === "A" ? "B" : "A") + stored.slice(at + 1);
    expect(tampered).not.toBe(stored);
    expect(() => decryptWebhookSecret(tampered, AUTH)).toThrow();
  });
});
