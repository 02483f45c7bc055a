import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from "jose";
import { db } from "../db/client";
import { securityEvent } from "../security/events";
import { clientKeys } from "./client-jwks";
import { InvalidClientError, InvalidRequestError } from "./errors";

// private_key_jwt (OpenID Connect Core §9, RFC 7523 §2.2 and §3): the client proves itself with a
// short JWT signed by its own private key; the server holds only the public key.
export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** Asymmetric algorithms only: "none" and HMAC (which would need a shared secret) are refused. */
export const CLIENT_ASSERTION_ALGS = ["RS256", "PS256", "ES256", "EdDSA"];
/** An assertion may live at most this long (exp − now): they are made for one request. */
export const CLIENT_ASSERTION_MAX_LIFETIME_SECONDS = 300;
/** Clock skew tolerated on exp, nbf and iat. */
export const CLIENT_ASSERTION_SKEW_SECONDS = 30;

/** The client_id an assertion names (its iss), read without verifying: only to find the client. */
export function assertionClientId(assertion: string): string {
  try {
    const { iss, sub } = decodeJwt(assertion);
    if (typeof iss === "string" && iss && iss === sub) return iss;
  } catch {
    throw new InvalidClientError("client_assertion is not a JWT");
  }
  throw new InvalidClientError("client_assertion must have iss and sub equal to the client_id");
}

/**
 * Verifies a client assertion for `client`: signed by one of its registered keys with an allowed
 * asymmetric algorithm, iss = sub = client_id, aud naming this server (its issuer or the endpoint
 * URL), exp present and at most CLIENT_ASSERTION_MAX_LIFETIME_SECONDS ahead, a jti never seen
 * before for this client (kept until exp, so a captured assertion cannot be replayed).
 */
export async function verifyClientAssertion(options: {
  client: { clientId: string; jwks: unknown; jwksUri: string | null };
  assertion: string;
  audiences: string[];
  now: Date;
}): Promise<void> {
  const { client, assertion, audiences, now } = options;
  let header;
  try {
    header = decodeProtectedHeader(assertion);
  } catch {
    throw fail(client.clientId, "malformed", "client_assertion is not a JWT");
  }
  if (typeof header.alg !== "string" || !CLIENT_ASSERTION_ALGS.includes(header.alg)) {
    throw fail(client.clientId, "alg", `client_assertion alg must be one of ${CLIENT_ASSERTION_ALGS.join(", ")}`);
  }
  const keys = await clientKeys(client, typeof header.kid === "string" ? header.kid : undefined);
  let payload;
  try {
    ({ payload } = await jwtVerify(assertion, keys, {
      algorithms: CLIENT_ASSERTION_ALGS,
      issuer: client.clientId,
      subject: client.clientId,
      audience: audiences,
      currentDate: now,
      clockTolerance: CLIENT_ASSERTION_SKEW_SECONDS,
      requiredClaims: ["exp", "jti"],
    }));
  } catch (err) {
    throw fail(client.clientId, "verify", describe(err));
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (payload.exp! > nowSeconds + CLIENT_ASSERTION_MAX_LIFETIME_SECONDS + CLIENT_ASSERTION_SKEW_SECONDS) {
    throw fail(client.clientId, "exp", `client_assertion exp must be at most ${CLIENT_ASSERTION_MAX_LIFETIME_SECONDS} seconds ahead`);
  }
  const jti = payload.jti!;
  if (typeof jti !== "string" || !jti || jti.length > 200) throw fail(client.clientId, "jti", "client_assertion jti must be a string of 1 to 200 characters");
  const expiresAt = new Date((payload.exp! + CLIENT_ASSERTION_SKEW_SECONDS) * 1000);
  // Insert-or-nothing: of two requests with one assertion exactly one inserts, whatever the race.
  const inserted = await db().$executeRaw`
    INSERT INTO "OAuthClientAssertion" ("clientId", "jti", "expiresAt") VALUES (${client.clientId}, ${jti}, ${expiresAt})
    ON CONFLICT DO NOTHING`;
  if (inserted !== 1) {
    securityEvent("oauth.client_assertion_replay", { client_id: client.clientId.slice(0, 200) });
    throw new InvalidClientError("client_assertion was already used (jti replay)");
  }
  // Spent jtis of this client go once they cannot be replayed any more (their assertion expired).
  await db().oAuthClientAssertion.deleteMany({ where: { clientId: client.clientId, expiresAt: { lt: now } } });
}

function describe(err: unknown): string {
  if (err instanceof joseErrors.JWKSNoMatchingKey) return "client_assertion kid matches none of the client's registered keys";
  if (err instanceof joseErrors.JWKSMultipleMatchingKeys) return "client_assertion needs a kid: the client has several matching keys";
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return "client_assertion signature is invalid";
  if (err instanceof joseErrors.JWTExpired) return "client_assertion has expired";
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `client_assertion ${err.claim} claim is invalid: ${err.reason}`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return "client_assertion alg is not allowed";
  if (err instanceof joseErrors.JOSEError) return "client_assertion could not be verified";
  if (err instanceof InvalidClientError) return err.description;
  throw err;
}

function fail(clientId: string, reason: string, message: string): InvalidClientError {
  securityEvent("oauth.client_auth_failed", { client_id: clientId.slice(0, 200), reason: `assertion_${reason}` });
  return new InvalidClientError(message);
}

/** The assertion parameters of a form, checked: both or neither, and the one assertion type. */
export function readAssertionParams(form: Map<string, string>): string | undefined {
  const type = form.get("client_assertion_type");
  const assertion = form.get("client_assertion");
  if (type === undefined && assertion === undefined) return undefined;
  if (type !== CLIENT_ASSERTION_TYPE) throw new InvalidRequestError(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
  if (!assertion) throw new InvalidRequestError("client_assertion is required with client_assertion_type");
  if (assertion.length > 8192) throw new InvalidRequestError("client_assertion is too long");
  return assertion;
}
