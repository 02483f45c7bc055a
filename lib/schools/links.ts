import type { Env } from "../env";

/**
 * The origin a school is served at, for links printed outside a request (CLI output): its custom
 * domain when it has one, else `<subdomain>.<PLATFORM_DOMAIN>`. https except on a loopback
 * platform domain, where `npm start` serves plain http on PORT (3000 unless set; `port` overrides).
 */
export function schoolOrigin(
  school: { subdomain: string; customDomain: string | null },
  e: Pick<Env, "PLATFORM_DOMAIN" | "PORT">,
  port: number = e.PORT,
): string {
  const platform = e.PLATFORM_DOMAIN;
  const local = platform === "localhost" || platform.endsWith(".localhost");
  const host = school.customDomain ?? `${school.subdomain}.${platform}`;
  return local && !school.customDomain ? `http://${host}:${port}` : `https://${host}`;
}
