import { generateApiKey } from "../credentials/api-key";
import { ALL_PERMISSIONS } from "../credentials/permissions";
import { recordAudits, type AuditActor } from "../db/audit";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { SchoolCommandError } from "./errors";
import { ensureMember } from "./add-member";
import { emailSchema, schoolNameSchema, subdomainSchema, zodProblem } from "./rules";

export interface CreateSchoolOptions {
  db: Db;
  subdomain: string;
  name: string;
  ownerEmail: string;
  ownerName?: string;
  now: Date;
  /** Who opens it (the CLI: cliActor): the audit log's actor of the school, its owner and its key. */
  actor: AuditActor;
}

export interface CreatedSchool {
  school: { id: string; subdomain: string; name: string; customDomain: string | null };
  owner: { id: string; email: string; created: boolean };
  /** Set when the owner has no password yet: the one-time token of the setup link. */
  passwordSetup: { token: string; expiresAt: Date } | null;
  apiKey: { id: string; prefix: string; key: string };
}

/**
 * Opens a school: the school, an empty home page, its owner (created when the email is new) and an
 * Admin API key with every permission, in one transaction. Secrets are returned once; only hashes
 * are stored. The same transaction writes the school's first audit rows: school.create, the owner's
 * member.create and the key's api_key.create (never the key or the setup token).
 */
export async function createSchool(options: CreateSchoolOptions): Promise<CreatedSchool> {
  const subdomain = subdomainSchema.safeParse(options.subdomain);
  if (!subdomain.success) throw new SchoolCommandError(zodProblem("--subdomain", subdomain.error));
  const name = schoolNameSchema.safeParse(options.name);
  if (!name.success) throw new SchoolCommandError(zodProblem("--name", name.error));
  const email = emailSchema.safeParse(options.ownerEmail);
  if (!email.success) throw new SchoolCommandError(zodProblem("--owner-email", email.error));

  const { key, prefix, secretHash } = generateApiKey();
  try {
    return await options.db.$transaction(async (tx) => {
      const school = await tx.school.create({ data: { subdomain: subdomain.data, name: name.data } });
      await tx.homePage.create({ data: { schoolId: school.id, title: name.data } });
      const member = await ensureMember({
        tx,
        schoolId: school.id,
        email: email.data,
        name: options.ownerName,
        roles: ["owner"],
        now: options.now,
      });
      const apiKey = await tx.apiKey.create({
        data: {
          schoolId: school.id,
          name: "Owner key (created with the school)",
          prefix,
          secretHash,
          permissions: [ALL_PERMISSIONS],
          enforceLimits: true,
        },
      });
      const entries = [
        { schoolId: school.id, action: "school.create", target: { type: "school", id: school.id }, summary: { subdomain: school.subdomain, name: school.name } },
        { schoolId: school.id, action: "member.create", target: { type: "member", id: member.user.id }, summary: { email: member.user.email, userCreated: member.created, roles: { from: null, to: member.roles } } },
        {
          schoolId: school.id,
          action: "api_key.create",
          target: { type: "api_key", id: apiKey.id },
          summary: { name: apiKey.name, prefix, permissions: apiKey.permissions, enforceLimits: apiKey.enforceLimits, expiresAt: null },
        },
      ];
      await recordAudits(tx, { actor: options.actor, entries, now: options.now });
      return {
        school: { id: school.id, subdomain: school.subdomain, name: school.name, customDomain: school.customDomain },
        owner: { id: member.user.id, email: member.user.email, created: member.created },
        passwordSetup: member.passwordSetup,
        apiKey: { id: apiKey.id, prefix, key },
      };
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new SchoolCommandError(`a school with subdomain "${subdomain.data}" already exists`);
    }
    throw err;
  }
}
