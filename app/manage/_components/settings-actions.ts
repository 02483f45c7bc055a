"use server";

import { now } from "@/lib/clock";
import { performSettingsAction } from "@/lib/console/settings-actions";
import { answer, requestHeaders } from "./run-action";

/** Every form of the Keys, Webhooks and Apps pages: `action` and `target` are bound by the page; lib/console checks both again. */
export async function settingsAction(action: string, target: string, form: FormData): Promise<void> {
  await answer(performSettingsAction({ headers: await requestHeaders(), action: String(action), target: String(target), form, now: now() }));
}
