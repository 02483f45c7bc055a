import { z } from "zod";
import { normalizeHost } from "../tenancy/host";

// Labels the platform keeps for itself: `www.<domain>` is the bare platform host, the rest are
// names a platform commonly needs later and that would mislead visitors if a school held them.
export const RESERVED_SUBDOMAINS = new Set(["www", "api", "admin", "app", "auth", "oauth", "login", "mail", "status", "docs", "static"]);

export const subdomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "must be 1-63 lower-case letters, digits or inner hyphens")
  .refine((s) => !RESERVED_SUBDOMAINS.has(s), "is reserved by the platform");

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email("must be an email address").max(320));

export const schoolNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

/** A custom domain: a valid host name, not an IP literal, not under the platform's own domain. */
export function customDomainProblem(raw: string, platformDomain: string): { host: string } | { problem: string } {
  const host = normalizeHost(raw);
  if (!host || raw.includes("/") || raw.includes(":")) return { problem: `"${raw}" is not a host name (give it without scheme, port or path)` };
  if (!host.includes(".") || /^\d+(\.\d+){3}$/.test(host)) return { problem: `"${raw}" is not a public host name` };
  const platform = platformDomain.toLowerCase();
  if (host === platform || host.endsWith(`.${platform}`)) {
    return { problem: `"${host}" is under the platform domain ${platform}; schools there are addressed by subdomain` };
  }
  return { host };
}

/** The first problem of a zod result as "<label> <message>". */
export function zodProblem(label: string, error: z.ZodError): string {
  return `${label} ${error.issues[0]?.message ?? "is invalid"}`;
}
