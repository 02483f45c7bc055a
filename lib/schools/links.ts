import type { Env } from "../env";

/**
 * The origin a school is served at, for links printed outside a request (CLI output): its custom
 * domain when it has one, else `<subdomain>.<PLATFORM_DOMAIN>`. https except on a loopback
 * platform domain, where the dev server runs plain http on port 3000 (PUBLIC_ORIGIN_PORT overrides).
 */
export function schoolOrigin(
  school: { subdomain: string; customDomain: string | null },
  e: Pick<Env, "PLATFORM_DOMAIN">,
): string {
  const platform = e.PLATFORM_DOMAIN;
  const local = platform === "localhost" || platform.endsWith(".localhost");
  const host = school.customDomain ?? `${school.subdomain}.${platform}`;
  return local && !school.customDomain ? `http://${host}:3000` : `https://${host}`;
}
