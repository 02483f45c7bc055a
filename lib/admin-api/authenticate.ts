import { ApiKeyRejectedError, verifyApiKey, type ApiKeyCredential } from "../credentials/verify-api-key";
import { AuthenticationError } from "./errors";

export const API_KEY_HEADER = "x-service-api-key";

export type AdminCredential = ApiKeyCredential;

/**
 * The caller of an Admin API request, from its X-Service-API-Key header (verified by
 * lib/credentials/verify-api-key.ts). Every failure is a 401 in the Admin API's error format.
 */
export async function authenticateApiKey(options: { headers: Headers; now: Date }): Promise<AdminCredential> {
  const { headers, now } = options;
  const raw = headers.get(API_KEY_HEADER);
  if (raw === null || raw.trim() === "") {
    if (/^\s*bearer\s/i.test(headers.get("authorization") ?? "")) {
      throw new AuthenticationError(
        "OAuth access tokens are not accepted by the Admin API while it is in preview: send an API key in the X-Service-API-Key header.",
      );
    }
    throw new AuthenticationError("Missing API key: send it in the X-Service-API-Key header.");
  }
  try {
    return await verifyApiKey({ key: raw, now });
  } catch (err) {
    if (err instanceof ApiKeyRejectedError) throw new AuthenticationError(err.message);
    throw err;
  }
}
