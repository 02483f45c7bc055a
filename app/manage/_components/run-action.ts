import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import type { ActionAnswer } from "@/lib/console/perform";

/** A console action's answer (lib/console/perform.ts) as Next's navigation: 404, 403 or a redirect. */
export async function answer(result: Promise<ActionAnswer>): Promise<never> {
  const a = await result;
  if (a.kind === "not_found") notFound();
  if (a.kind === "forbidden") forbidden();
  redirect(a.location);
}

export const requestHeaders = async () => new Headers(await headers());
