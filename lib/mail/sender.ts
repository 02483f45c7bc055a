import { env } from "../env";
import { oneLine } from "./render";

/**
 * The From of a school's mails: its name, and its own address when it set one (School.mailFromAddress,
 * which its domain must allow our server to send for), else no-reply@<PLATFORM_DOMAIN>. The name is
 * reduced to one line; nodemailer encodes it, so quotes or commas in it cannot add an address.
 */
export function schoolSender(school: { name: string; mailFromAddress: string | null }): { name: string; address: string } {
  return { name: oneLine(school.name, 100) || "Schoolhouse", address: school.mailFromAddress ?? `no-reply@${env().PLATFORM_DOMAIN}` };
}
