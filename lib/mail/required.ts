import type { Db } from "../db/client";
import { MAIL_KINDS } from "./enqueue";

/**
 * Schools that send some kind of mail (every kind is on unless the school turned it off): start-up
 * refuses production on its own database without MAIL_URL while there is one, since their mails
 * would only reach a folder on the server.
 */
export async function schoolsSendingMail(prisma: Pick<Db, "school">): Promise<string[]> {
  const schools = await prisma.school.findMany({
    where: { disabledAt: null, NOT: { mailDisabled: { hasEvery: [...MAIL_KINDS] } } },
    select: { subdomain: true },
    orderBy: { subdomain: "asc" },
    take: 3,
  });
  return schools.map((s) => s.subdomain);
}
