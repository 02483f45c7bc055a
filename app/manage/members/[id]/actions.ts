"use server";

import { now } from "@/lib/clock";
import { performMemberAction } from "@/lib/console/perform";
import { answer, requestHeaders } from "../../_components/run-action";

/** Every member page form: `memberId` and `action` are bound by the page; lib/console checks both again. */
export async function memberAction(memberId: string, action: string, form: FormData): Promise<void> {
  await answer(performMemberAction({ headers: await requestHeaders(), memberId: String(memberId), action: String(action), form, now: now() }));
}
