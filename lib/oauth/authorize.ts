import { randomToken, hashSecret } from "../credentials/secret";
import { db } from "../db/client";
import type { School } from "../db/generated/client";
import type { MemberSession } from "../auth/session";
import { ClientMetadataError } from "./cimd";
import { findClient, type OAuthClientInfo } from "./clients";
import {
  AccessDeniedError,
  ConsentRequiredError,
  InteractionRequiredError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  LoginRequiredError,
  OAuthError,
  UnauthorizedClientError,
  UnsupportedResponseTypeError,
} from "./errors";
import { createLoginTicket, LOGIN_TICKET_PARAM, loginTicketTime } from "./login-ticket";
import { isValidCodeChallenge } from "./pkce";
import { findRedirectUri } from "./redirect-uri";
import { formatScope, grantableScopes, parseScope, unknownScopes } from "./scopes";
import { AUTHORIZATION_CODE_TTL_SECONDS, CODE_PREFIX } from "./tokens";

export const AUTHORIZE_PATH = "/oauth/authorize";
export const SELECT_SCHOOL_PATH = "/oauth/select-school";
export const CONSENT_PATH = "/oauth/consent";

/** The parameters an authorization request carries (query on GET, form on POST). */
export const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "school_id",
  "resource",
  "nonce",
  "prompt",
  "max_age",
  // Ours, not the client's: set when prompt=login sent the member to sign in (login-ticket.ts).
  LOGIN_TICKET_PARAM,
] as const;

/** The `prompt` values honoured (OpenID Connect Core §3.1.2.1), as discovery states them. */
export const PROMPT_VALUES = ["none", "login", "consent"] as const;
/** Longer nonces are refused rather than stored (node-oidc-provider has no limit; 512 covers every client's). */
export const MAX_NONCE_LENGTH = 512;
export type PromptValue = (typeof PROMPT_VALUES)[number];

/** An authorization request that cannot safely redirect back: shown as an error page. */
export class AuthorizePageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error reported to the client on its redirect URI (RFC 6749 §4.1.2.1, with RFC 9207 `iss`). */
export class AuthorizeRedirectError extends Error {
  constructor(
    readonly error: OAuthError,
    readonly redirectUri: string,
    readonly state: string | null,
  ) {
    super(error.description);
  }
}

export interface HostSchool {
  /** The school the request's host names, or null on the bare platform host (the picker decides). */
  school: School | null;
}

export interface ValidatedAuthorization {
  client: OAuthClientInfo;
  redirectUri: string;
  state: string | null;
  requestedScopes: string[];
  grantedScopes: string[];
  codeChallenge: string;
  resource: string | null;
  /** The school fixed by school_id or by the host; null when the member must pick one. */
  school: School | null;
  /** `prompt` values (empty when none was given). */
  prompt: ReadonlySet<PromptValue>;
  /** The login ticket a prompt=login left in the callback, if any. */
  loginTicket: string | null;
  /** OpenID Connect `nonce`, echoed exactly in the ID token. */
  nonce: string | null;
  /** OpenID Connect `max_age` in seconds: an older sign-in must be repeated. */
  maxAge: number | null;
  /** The request's own parameters, to carry through login, picker and consent. */
  params: URLSearchParams;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) return null;
  return values[0] ?? null;
}

function duplicated(params: URLSearchParams, name: string): boolean {
  return params.getAll(name).length > 1;
}

/** Steps 1–2: the client and its redirect URI. Until both are known nothing may redirect. */
export async function resolveClientAndRedirect(params: URLSearchParams): Promise<{ client: OAuthClientInfo; redirectUri: string }> {
  if (duplicated(params, "client_id") || duplicated(params, "redirect_uri")) {
    throw new AuthorizePageError(400, "Invalid request", "client_id and redirect_uri must each be given once.");
  }
  const clientId = single(params, "client_id");
  if (!clientId) throw new AuthorizePageError(400, "Unknown application", "The request does not name an application (client_id is missing).");
  let client: OAuthClientInfo | null;
  try {
    client = await findClient(clientId);
  } catch (error) {
    if (error instanceof ClientMetadataError) {
      throw new AuthorizePageError(400, "Unknown application", `The application's metadata document could not be used: ${error.description}.`);
    }
    throw error;
  }
  if (!client) throw new AuthorizePageError(400, "Unknown application", "No application is registered with this client_id.");
  const requested = single(params, "redirect_uri");
  if (!requested) throw new AuthorizePageError(400, "Invalid redirect URI", "The request has no redirect_uri.");
  const redirectUri = findRedirectUri(client.redirectUris, requested);
  if (!redirectUri) {
    throw new AuthorizePageError(400, "Invalid redirect URI", "The redirect_uri does not match any address registered for this application.");
  }
  return { client, redirectUri };
}

export const CIMD_OFF_MESSAGE = "This school does not accept applications identified by a Client ID Metadata Document.";

/** Step 3: everything else; errors now go back to the client's redirect URI. */
export async function validateAuthorization(options: {
  params: URLSearchParams;
  client: OAuthClientInfo;
  redirectUri: string;
  host: HostSchool;
}): Promise<ValidatedAuthorization> {
  const { params, client, redirectUri, host } = options;
  const stateValues = params.getAll("state");
  const state = stateValues[0] ?? null;
  const fail = (error: OAuthError): never => {
    throw new AuthorizeRedirectError(error, redirectUri, state);
  };
  for (const name of AUTHORIZE_PARAMS) if (duplicated(params, name)) fail(new InvalidRequestError(`${name} must be given once`));

  const responseType = single(params, "response_type");
  if (!responseType) fail(new InvalidRequestError("response_type is required"));
  if (responseType !== "code" || !client.responseTypes.includes("code")) fail(new UnsupportedResponseTypeError());
  if (!client.grantTypes.includes("authorization_code")) fail(new UnauthorizedClientError("This client may not use the authorization code grant"));

  const prompt = parsePrompt(single(params, "prompt"));
  if (prompt instanceof OAuthError) fail(prompt);

  const challenge = single(params, "code_challenge");
  const method = single(params, "code_challenge_method");
  if (!challenge) fail(new InvalidRequestError("code_challenge is required (PKCE)"));
  if (method !== "S256") fail(new InvalidRequestError("code_challenge_method must be S256"));
  if (!isValidCodeChallenge(challenge!)) fail(new InvalidRequestError("code_challenge must be a base64url SHA-256 digest (43 characters)"));

  // RFC 6749 §3.3: without `scope` the server uses a documented default: the client's registered
  // scope (what the consent page then shows). The MCP SDK's authorization-code flow relies on it.
  const requestedScopes = parseScope(single(params, "scope") ?? client.scope);
  if (!requestedScopes.length) fail(new InvalidScopeError("scope is required"));
  const unknown = unknownScopes(requestedScopes);
  if (unknown.length) fail(new InvalidScopeError(`Unknown scope: ${unknown.join(" ")}`));
  const grantedScopes = grantableScopes(requestedScopes, client.scope);
  if (!grantedScopes.length) fail(new InvalidScopeError("None of the requested scopes may be granted to this client"));

  const nonce = single(params, "nonce");
  if (nonce !== null && (nonce.length > MAX_NONCE_LENGTH || !nonce)) fail(new InvalidRequestError(`nonce must be 1 to ${MAX_NONCE_LENGTH} characters`));
  const maxAgeParam = single(params, "max_age");
  if (maxAgeParam !== null && !/^\d{1,10}$/.test(maxAgeParam)) fail(new InvalidRequestError("max_age must be a whole number of seconds"));

  const resource = single(params, "resource");
  if (resource !== null) {
    let url: URL | null = null;
    try {
      url = new URL(resource);
    } catch {
      url = null;
    }
    if (!url || url.hash) fail(new InvalidTargetError("resource must be an absolute URI without a fragment"));
  }

  let school = host.school;
  const schoolId = single(params, "school_id");
  if (schoolId !== null) {
    if (!UUID.test(schoolId)) fail(new InvalidRequestError("school_id is not a valid school identifier"));
    const byId = await db().school.findUnique({ where: { id: schoolId, disabledAt: null } });
    if (!byId) fail(new InvalidRequestError("school_id names no school"));
    if (host.school && host.school.id !== byId!.id) fail(new InvalidRequestError("school_id names a different school than this address"));
    school = byId;
  }
  if (school && client.schoolId && client.schoolId !== school.id) {
    fail(new InvalidRequestError("This client is not available at this school"));
  }
  // The school turned metadata-document apps off (console, Apps): an error page, never a redirect to
  // a URI the document chose (the rule of every error before consent for these clients).
  if (school && client.isMetadataDocument && !school.cimdAllowed) throw new AuthorizePageError(400, "Application not accepted", CIMD_OFF_MESSAGE);

  const carried = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) {
    const v = single(params, name);
    if (v !== null) carried.set(name, v);
  }
  return {
    client,
    redirectUri,
    state,
    requestedScopes,
    grantedScopes,
    codeChallenge: challenge!,
    resource,
    school,
    prompt: prompt as ReadonlySet<PromptValue>,
    loginTicket: single(params, LOGIN_TICKET_PARAM),
    nonce,
    maxAge: maxAgeParam === null ? null : Number(maxAgeParam),
    params: carried,
  };
}

/**
 * `prompt` (OpenID Connect Core §3.1.2.1): space-separated `none`, `login`, `consent`. `none` with
 * anything else, `select_account` (there is no account chooser) and unknown values are
 * invalid_request. An empty value asks for nothing.
 */
function parsePrompt(value: string | null): Set<PromptValue> | OAuthError {
  const values = new Set<PromptValue>();
  for (const v of (value ?? "").split(" ").filter(Boolean)) {
    if (!(PROMPT_VALUES as readonly string[]).includes(v)) {
      return new InvalidRequestError(v === "select_account" ? "prompt=select_account is not supported" : "prompt may only be none, login or consent");
    }
    values.add(v as PromptValue);
  }
  if (values.has("none") && values.size > 1) return new InvalidRequestError("prompt=none cannot be combined with other values");
  return values;
}

/** The schools a member may authorize a client for (all their memberships, or the client's one school). */
export async function memberSchools(userId: string, client: OAuthClientInfo): Promise<School[]> {
  const memberships = await db().schoolMembership.findMany({
    // Only schools the member belongs to that still answer (a disabled school cannot be chosen).
    // A metadata-document app is offered only the schools that accept such apps.
    where: { userId, school: { disabledAt: null, ...(client.isMetadataDocument ? { cimdAllowed: true } : {}) }, ...(client.schoolId ? { schoolId: client.schoolId } : {}) },
    include: { school: true },
    orderBy: { school: { name: "asc" } },
  });
  return memberships.map((m) => m.school);
}

export function redirectWith(redirectUri: string, values: Record<string, string | null>, issuer: string): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(values)) if (v !== null) url.searchParams.set(k, v);
  url.searchParams.set("iss", issuer);
  return url.toString();
}

export function errorRedirect(err: AuthorizeRedirectError, issuer: string): string {
  return redirectWith(err.redirectUri, { error: err.error.code, error_description: err.error.description, state: err.state }, issuer);
}

export type AuthorizeStep =
  | { kind: "login"; location: string }
  | { kind: "pick-school"; location: string }
  | { kind: "consent"; location: string }
  | { kind: "redirect"; location: string };

const withParams = (path: string, params: URLSearchParams) => `${path}?${params.toString()}`;

export async function consentIsRemembered(options: { userId: string; clientId: string; schoolId: string; scope: string }): Promise<boolean> {
  const { userId, clientId, schoolId, scope } = options;
  const row = await db().oAuthConsent.findUnique({ where: { userId_clientId_schoolId_scope: { userId, clientId, schoolId, scope } } });
  return row !== null;
}

/**
 * Where the member must sign in before this request may go on, or null when the session will do.
 * Without a session: the login page. With `prompt=login`, or `max_age` older than the session's
 * sign-in (OpenID Connect Core §3.1.2.1): the login page too, with a callback that carries a login
 * ticket instead of `prompt=login` (so the flow goes on after signing in); with a ticket: a session
 * created since the ticket was issued (a valid, unexpired ticket), else the login page again with
 * a new one. A ticket satisfies `max_age` too: the sign-in it asked for is as fresh as it gets.
 */
export function loginRequired(request: ValidatedAuthorization, session: MemberSession | null, now: Date): string | null {
  const stale = session !== null && request.maxAge !== null && now.getTime() - session.signedInAt.getTime() > request.maxAge * 1000;
  const wantsNewSignIn = request.prompt.has("login") || request.loginTicket !== null || stale;
  if (session && !wantsNewSignIn) return null;
  if (session && !request.prompt.has("login")) {
    const askedAt = loginTicketTime(request.loginTicket!, now);
    if (askedAt && session.signedInAt.getTime() >= askedAt.getTime()) return null;
  }
  const callback = new URLSearchParams(request.params);
  if (wantsNewSignIn) {
    const rest = [...request.prompt].filter((p) => p !== "login");
    if (rest.length) callback.set("prompt", rest.join(" "));
    else callback.delete("prompt");
    callback.set(LOGIN_TICKET_PARAM, createLoginTicket(now));
  }
  return `/login?callbackUrl=${encodeURIComponent(withParams(AUTHORIZE_PATH, callback))}`;
}

/**
 * Where a validated request goes next for this member: login, school picker, consent, or straight
 * back with a code. With `prompt=none` every page is an error instead (OpenID Connect Core
 * §3.1.2.6): login_required, interaction_required (the school picker), consent_required.
 */
export async function nextAuthorizeStep(options: {
  request: ValidatedAuthorization;
  session: MemberSession | null;
  issuer: string;
  now: Date;
}): Promise<AuthorizeStep> {
  const { request, session, issuer, now } = options;
  const silent = request.prompt.has("none");
  const fail = (error: OAuthError): never => {
    throw new AuthorizeRedirectError(error, request.redirectUri, request.state);
  };
  const login = loginRequired(request, session, now);
  if (login || !session) {
    if (silent) fail(new LoginRequiredError());
    return { kind: "login", location: login! };
  }
  const school = await chooseSchool(request, session);
  if (!school) {
    if (silent) fail(new InteractionRequiredError("The member must choose a school (send school_id, or use the school's own address)"));
    return { kind: "pick-school", location: withParams(SELECT_SCHOOL_PATH, request.params) };
  }
  const scope = formatScope(request.grantedScopes);
  // prompt=consent: ask again even when this exact consent is remembered.
  const remembered =
    !request.prompt.has("consent") && (await consentIsRemembered({ userId: session.userId, clientId: request.client.clientId, schoolId: school.id, scope }));
  if (!remembered && silent) fail(new ConsentRequiredError());
  if (remembered) {
    const code = await issueAuthorizationCode({ request, session, schoolId: school.id, issuer, now });
    return { kind: "redirect", location: redirectWith(request.redirectUri, { code, state: request.state }, issuer) };
  }
  const params = new URLSearchParams(request.params);
  params.set("school_id", school.id);
  return { kind: "consent", location: withParams(CONSENT_PATH, params) };
}

/** The school for this request, checking membership; null means the member must pick. */
async function chooseSchool(request: ValidatedAuthorization, session: MemberSession): Promise<School | null> {
  if (!request.school) return null;
  const membership = await db().schoolMembership.findUnique({
    where: { schoolId_userId: { schoolId: request.school.id, userId: session.userId } },
  });
  if (!membership) {
    throw new AuthorizeRedirectError(new AccessDeniedError("You are not a member of this school"), request.redirectUri, request.state);
  }
  return request.school;
}

/** The member's answer on the consent page. */
export async function decideConsent(options: {
  request: ValidatedAuthorization;
  session: MemberSession;
  approve: boolean;
  issuer: string;
  now: Date;
}): Promise<string> {
  const { request, session, approve, issuer, now } = options;
  const school = await chooseSchool(request, session);
  if (!school) {
    throw new AuthorizeRedirectError(new InvalidRequestError("school_id is required"), request.redirectUri, request.state);
  }
  if (!approve) {
    const denied = new AccessDeniedError("The member denied the request");
    return redirectWith(request.redirectUri, { error: denied.code, error_description: denied.description, state: request.state }, issuer);
  }
  const scope = formatScope(request.grantedScopes);
  await db().oAuthConsent.upsert({
    where: { userId_clientId_schoolId_scope: { userId: session.userId, clientId: request.client.clientId, schoolId: school.id, scope } },
    create: { userId: session.userId, clientId: request.client.clientId, schoolId: school.id, scope, createdAt: now },
    update: {},
  });
  const code = await issueAuthorizationCode({ request, session, schoolId: school.id, issuer, now });
  return redirectWith(request.redirectUri, { code, state: request.state }, issuer);
}

/**
 * A new grant and its single-use code, bound to client, redirect URI, PKCE challenge, user, school,
 * scopes, resource and the issuing origin (the code and its tokens work only there).
 */
export async function issueAuthorizationCode(options: {
  request: ValidatedAuthorization;
  /** The member's session: its sign-in time is the ID token's auth_time, its id the sid. */
  session: Pick<MemberSession, "userId" | "sessionId" | "signedInAt">;
  schoolId: string;
  issuer: string;
  now: Date;
}): Promise<string> {
  const { request, session, schoolId, issuer, now } = options;
  const userId = session.userId;
  const code = CODE_PREFIX + randomToken(32);
  const scope = formatScope(request.grantedScopes);
  await db().$transaction(async (tx) => {
    const grant = await tx.oAuthGrant.create({
      data: {
        clientId: request.client.clientId,
        userId,
        schoolId,
        scope,
        resource: request.resource,
        issuer,
        authTime: session.signedInAt,
        sessionId: session.sessionId,
        createdAt: now,
      },
    });
    await tx.oAuthAuthorizationCode.create({
      data: {
        codeHash: hashSecret(code),
        grantId: grant.id,
        clientId: request.client.clientId,
        redirectUri: request.redirectUri,
        scope,
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: "S256",
        resource: request.resource,
        nonce: request.nonce,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
      },
    });
  });
  return code;
}
