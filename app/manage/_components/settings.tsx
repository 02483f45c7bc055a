import type { ReactNode } from "react";
import { now } from "@/lib/clock";
import type { ConsoleStaff } from "@/lib/console/access";
import type { SchoolAppKind } from "@/lib/oauth/school-apps/list-school-apps";
import { takeSecretReveal } from "@/lib/console/secret-reveal";
import { ButtonForm, one, pageNotice } from "./console";
import { settingsAction } from "./settings-actions";

/** The secret the last form of this page made, taken once (lib/console/secret-reveal.ts). */
export async function pageSecret(staff: ConsoleStaff, params: Record<string, string | string[] | undefined>): Promise<string | null> {
  return takeSecretReveal({ sessionId: staff.session.sessionId, formToken: one(params.notice), now: now() });
}

/** A settings page's feedback from its last form: the notice, and the secret it made (shown once). */
export async function pageFeedback(staff: ConsoleStaff, params: Record<string, string | string[] | undefined>) {
  const [notice, secret] = await Promise.all([pageNotice(staff, params), pageSecret(staff, params)]);
  return { notice, secret };
}

/** Shows a new secret once, with what to do with it. */
export function SecretOnce(props: { secret: string | null; label: string; children?: ReactNode }) {
  if (!props.secret) return null;
  return (
    <section className="card" aria-labelledby="secret-once-title">
      <h2 id="secret-once-title">{props.label}</h2>
      <p>This is the only time it is shown: copy it now and store it somewhere safe. Reloading this page will not show it again.</p>
      <p>
        <code className="secret-once" data-testid="secret-once">
          {props.secret}
        </code>
      </p>
      {props.children}
    </section>
  );
}

/** A one-button form of a settings page (with hidden fields and, for sensitive actions, the step-up). */
export function SettingsButton(props: { action: string; target?: string; label: string; fields?: Record<string, string>; secondary?: boolean; children?: ReactNode }) {
  return (
    <ButtonForm action={settingsAction.bind(null, props.action, props.target ?? "")} label={props.label} fields={props.fields} secondary={props.secondary}>
      {props.children}
    </ButtonForm>
  );
}

export const KIND_LABELS: Record<SchoolAppKind, string> = {
  school_client: "This school's app",
  platform_client: "Platform or vendor app",
  metadata_document: "Metadata document (not registered)",
};
