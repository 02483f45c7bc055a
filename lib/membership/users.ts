import { z } from "zod";
import type { Prisma, User } from "../db/generated/client";
import { recordEvent, type OutboxEvent } from "../db/outbox";
import { enqueueMail } from "../mail/enqueue";
import { presentUser } from "./presenter";

type Tx = Prisma.TransactionClient;

export const INVALID_EMAIL = "Email is not a valid email address";
export const NAME_REQUIRED = "Name is required for new users";

const emailSchema = z.email().max(254);

/** The roles of a member who joins a school by a subscription or an enrollment. */
export const NEW_MEMBER_ROLES: string[] = ["student"];

/** The stored form of a new user's name (trimmed, at most 200 characters), or null when blank. */
export const memberName = (raw: string | null | undefined): string | null => raw?.trim().slice(0, 200) || null;

/** The event of a user who joined a school. */
export const memberCreatedEvent = (schoolId: string, user: User): OutboxEvent => ({
  schoolId,
  type: "member.created",
  subjectId: user.id,
  data: presentUser(user),
});

/** The stored form of an email (trimmed, lower-cased), or null when it is not an address. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return emailSchema.safeParse(email).success ? email : null;
}

/**
 * The user with this email, created with `name` when new, and a member of the school (role
 * student when the membership is new). `created` says the user did not exist before this call.
 * Inserts use ON CONFLICT DO NOTHING so concurrent calls for the same new email converge on one
 * row instead of failing on the unique email; with a name, the insert comes first, so a new user
 * costs one statement rather than a lookup, an insert and a re-read. Joining the school writes a
 * member.created event in the same transaction.
 */
/**
 * The mails of a member joining a school, in the transaction that adds them: welcome (with the
 * password link when they have none), and for a new account the email verification link.
 */
export async function mailNewMember(
  tx: Pick<Tx, "school" | "mailMessage">,
  options: { schoolId: string; user: Pick<User, "id" | "email">; accountCreated: boolean; now: Date },
): Promise<void> {
  const mail = { schoolId: options.schoolId, to: options.user.email, userId: options.user.id, now: options.now };
  await enqueueMail(tx, { ...mail, kind: "welcome" });
  if (options.accountCreated) await enqueueMail(tx, { ...mail, kind: "verify-email" });
}

export async function findOrCreateMember(
  tx: Tx,
  options: { schoolId: string; email: string; name: string | null | undefined; now: Date },
): Promise<{ user: User; created: boolean } | { error: string }> {
  const name = memberName(options.name);
  let user: User | null = null;
  let created = false;
  if (name) {
    [user = null] = await tx.user.createManyAndReturn({ data: [{ email: options.email, name }], skipDuplicates: true });
    created = user !== null;
  }
  user ??= await tx.user.findUnique({ where: { email: options.email } });
  if (!user) return { error: NAME_REQUIRED };
  const joined = await tx.schoolMembership.createMany({
    data: [{ schoolId: options.schoolId, userId: user.id, roles: NEW_MEMBER_ROLES }],
    skipDuplicates: true,
  });
  if (joined.count) {
    await recordEvent(tx, { event: memberCreatedEvent(options.schoolId, user), now: options.now });
    await mailNewMember(tx, { schoolId: options.schoolId, user, accountCreated: created, now: options.now });
  }
  return { user, created };
}
