import { z } from "zod";
import type { Prisma, User } from "../db/generated/client";

type Tx = Prisma.TransactionClient;

export const INVALID_EMAIL = "Email is not a valid email address";
export const NAME_REQUIRED = "Name is required for new users";

const emailSchema = z.email().max(254);

/** The stored form of an email (trimmed, lower-cased), or null when it is not an address. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return emailSchema.safeParse(email).success ? email : null;
}

/**
 * The user with this email, created with `name` when new, and a member of the school (role
 * student when the membership is new). Inserts use ON CONFLICT DO NOTHING so concurrent calls for
 * the same new email converge on one row instead of failing on the unique email.
 */
export async function findOrCreateMember(
  tx: Tx,
  options: { schoolId: string; email: string; name: string | null | undefined },
): Promise<{ user: User } | { error: string }> {
  let user = await tx.user.findUnique({ where: { email: options.email } });
  if (!user) {
    const name = options.name?.trim();
    if (!name) return { error: NAME_REQUIRED };
    await tx.user.createMany({ data: [{ email: options.email, name: name.slice(0, 200) }], skipDuplicates: true });
    user = await tx.user.findUniqueOrThrow({ where: { email: options.email } });
  }
  await tx.schoolMembership.createMany({
    data: [{ schoolId: options.schoolId, userId: user.id, roles: ["student"] }],
    skipDuplicates: true,
  });
  return { user };
}
