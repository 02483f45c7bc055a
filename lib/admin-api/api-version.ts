import { ApiVersionError } from "./errors";

// Date-style versions, newest last. An absent header means the current version, so clients that
// never send one keep working until a breaking version ships and they opt in.
export const API_VERSIONS = ["2026-01"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

/** The API-Version a request asks for; throws ApiVersionError (400) for anything not accepted. */
export function resolveApiVersion(headers: Headers): ApiVersion {
  const raw = headers.get("api-version");
  if (raw === null || raw.trim() === "") return CURRENT_API_VERSION;
  const value = raw.trim();
  if ((API_VERSIONS as readonly string[]).includes(value)) return value as ApiVersion;
  throw new ApiVersionError(
    `Unsupported API-Version "${value.slice(0, 40)}". Accepted values: ${API_VERSIONS.join(", ")} (omit the header for ${CURRENT_API_VERSION}).`,
    API_VERSIONS,
  );
}
