import type { Metadata } from "next";
import { forbidden, notFound, redirect } from "next/navigation";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { cache } from "react";
import { now } from "@/lib/clock";
import { consoleAccess, consoleLoginPath, type ConsoleStaff } from "@/lib/console/access";
import { consoleNotice, FORM_TOKEN_FIELD, newFormToken, refusalNotice, type ConsoleNotice } from "@/lib/console/form-guard";
import { CONSOLE_NAV, CONSOLE_PATH } from "@/lib/console/nav";
import { one, type PageQuery } from "@/lib/console/paging";
import type { ConsolePermission } from "@/lib/console/permissions";
import { needsStepUp, STEP_UP_FIELD } from "@/lib/console/step-up";
import { brandStyle } from "@/lib/storefront/brand";

export type Search = Promise<PageQuery>;
export { one };

/**
 * The staff member for a console page at `path` that needs `permission`: the login page for a
 * visitor, 404 on a host without a school, 403 (app/manage/forbidden.tsx) for anyone the matrix
 * does not allow. proxy.ts answers the same before the page renders; this is the page's own check.
 */
export const consolePage = cache(async (path: string, permission: ConsolePermission | null): Promise<ConsoleStaff> => {
  const access = await consoleAccess({ headers: await headers() });
  if (access.kind === "no_school") notFound();
  if (access.kind === "anonymous") redirect(consoleLoginPath(path));
  if (access.kind !== "staff") forbidden();
  if (permission && !access.permissions.has(permission)) forbidden();
  return access;
});

export function consoleMetadata(title: string): () => Promise<Metadata> {
  return async () => {
    const access = await consoleAccess({ headers: await headers() }).catch(() => null);
    const school = access && access.kind !== "no_school" ? access.school.name : null;
    return { title: { absolute: school ? `${title} · Staff console · ${school}` : `${title} · Staff console` }, robots: { index: false } };
  };
}

/** What the last form on this page did: its stored notice (by token), or a refusal code. */
export async function pageNotice(staff: ConsoleStaff, params: Record<string, string | string[] | undefined>): Promise<ConsoleNotice | null> {
  return (await consoleNotice({ sessionId: staff.session.sessionId, token: one(params.notice), now: now() })) ?? refusalNotice(one(params.refused));
}

/** Every console page: the school's brand, the navigation the member's roles open, the heading and the last form's notice. */
export function ConsoleShell(props: { staff: ConsoleStaff; current: string; title: string; notice?: ConsoleNotice | null; children: ReactNode }) {
  const { staff } = props;
  const items = CONSOLE_NAV.filter((item) => staff.permissions.has(item.permission));
  return (
    <div className="console" style={brandStyle(staff.school.brandColor)}>
      <header className="console-header">
        <div className="wrap console-bar">
          <a className="brand" href={CONSOLE_PATH}>
            <span className="school-swatch" aria-hidden="true" /> {staff.school.name}
          </a>
          <span className="meta">Staff console · {staff.session.email}</span>
          <Link className="console-site-link" href="/">
            View site
          </Link>
        </div>
        <nav className="wrap" aria-label="Staff console">
          <ul className="account-nav console-nav">
            {items.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={item.href === props.current ? "page" : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main className="wrap console-main">
        <h1>{props.title}</h1>
        {props.notice ? (
          <p className={props.notice.kind === "error" ? "error" : "done"} role={props.notice.kind === "error" ? "alert" : "status"}>
            {props.notice.text}
          </p>
        ) : null}
        {props.children}
      </main>
    </div>
  );
}

/** A form posting to a console server action, with its run-once token (lib/console/form-guard.ts). */
export function ConsoleForm(props: { action: (form: FormData) => Promise<void>; className?: string; label?: string; children: ReactNode }) {
  return (
    <form className={props.className ?? "stack"} action={props.action} aria-label={props.label}>
      <input type="hidden" name={FORM_TOKEN_FIELD} value={newFormToken()} />
      {props.children}
    </form>
  );
}

/** A console form's submit button; `row` puts it on its own line below the form's fields. */
export function SubmitButton(props: { label: ReactNode; secondary?: boolean; row?: boolean }) {
  const button = (
    <button className={props.secondary ? "button secondary" : "button"} type="submit">
      {props.label}
    </button>
  );
  return props.row ? <div>{button}</div> : button;
}

/** A labelled select; `none` is a first option with the empty value (a filter's "any"). */
export function SelectField(props: { label: string; name: string; options: readonly { value: string; label: string }[]; defaultValue?: string; required?: boolean; none?: string }) {
  return (
    <label>
      {props.label}
      <select name={props.name} defaultValue={props.defaultValue} required={props.required}>
        {props.none !== undefined ? <option value="">{props.none}</option> : null}
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A one-button form (the button's text is also the form's name) posting `action`, a server action
 * with its target bound, with hidden `fields` and, for sensitive actions, the step-up as children.
 */
export function ButtonForm(props: { action: (form: FormData) => Promise<void>; label: string; fields?: Record<string, string>; secondary?: boolean; children?: ReactNode }) {
  return (
    <ConsoleForm action={props.action} className="inline-form" label={props.label}>
      {Object.entries(props.fields ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {props.children}
      <SubmitButton label={props.label} secondary={props.secondary} />
    </ConsoleForm>
  );
}

/**
 * The step-up field of a sensitive action's form: the member's password, asked only when their
 * last password entry on this session is older than 10 minutes (lib/console/step-up.ts checks it
 * again on submit).
 */
export function StepUpField({ staff, id }: { staff: ConsoleStaff; id: string }) {
  if (!needsStepUp(staff, now())) return null;
  return (
    <>
      <input type="email" name="username" value={staff.session.email} autoComplete="username" readOnly hidden />
      <label>
        Your password
        <input type="password" name={STEP_UP_FIELD} autoComplete="current-password" required aria-describedby={`${id}-step-up-note`} />
      </label>
      <p id={`${id}-step-up-note`} className="meta">
        You signed in more than 10 minutes ago: confirm it is you before this change.
      </p>
    </>
  );
}

export const formatDate = (d: Date | null) => (d ? new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" }).format(d) : "—");
export const formatDateTime = (d: Date | null) =>
  d ? new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(d) + " UTC" : "—";
export const formatMoney = (cents: number, currency: string) => new Intl.NumberFormat("en-GB", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
