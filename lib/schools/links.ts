import type { Env } from "../env";
import { baseUrlContext } from "../tenancy/request-context";

/**
 * The platform's address for links made outside a request (CLI output): on a loopback platform
 * domain, `http://<PLATFORM_DOMAIN>:<port>` (what `npm start` serves: PORT, else 3000; `port`
 * overrides), else `https://<PLATFORM_DOMAIN>`.
 */
export function platformBaseUrl(e: Pick<Env, "PLATFORM_DOMAIN" | "PORT">, port: number = e.PORT): string {
  const platform = e.PLATFORM_DOMAIN;
  const local = platform === "localhost" || platform.endsWith(".localhost");
  return local ? `http://${platform}:${port}` : `https://${platform}`;
}

/**
 * The origin a school's printed links use: its custom domain (https) when it has one, else its
 * subdomain of the explicit base URL's host, in the base URL's scheme. The origin is the request
 * context's (lib/tenancy/request-context.ts), so a link names the origin a request to it would have.
 */
export function schoolLinkOrigin(school: { subdomain: string; customDomain: string | null }, baseUrl: string): string {
  const base = new URL(baseUrl);
  const address = school.customDomain ? `https://${school.customDomain}` : `${base.protocol}//${school.subdomain}.${base.host}`;
  return baseUrlContext(address).origin;
}
