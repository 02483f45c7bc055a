import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { InputHTMLAttributes, ReactNode } from "react";
import { cache } from "react";
import { accountAccess, accountLoginPath } from "@/lib/account/access";
import { ACCOUNT_FORMS_PATH, ACCOUNT_PAGES } from "@/lib/account/forms";
import { accountNotice } from "@/lib/account/messages";
import { authSecret } from "@/lib/auth/auth-secret";
import { csrfTokenFromCookies } from "@/lib/auth/csrf";

export type Search = Promise<Record<string, string | string[] | undefined>>;
export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The signed-in member of this school, for an account page at `path`. proxy.ts answers the login
 * redirect and the 403 before a page renders; these are the same rules again, in case it did not.
 * Forms need Auth.js's CSRF cookie: without it, one round trip through /api/auth/csrf-cookie sets it.
 */
export const accountPage = cache(async (path: string, cookieCheck: boolean) => {
  const h = await headers();
  const access = await accountAccess({ headers: h });
  if (access.kind === "anonymous") redirect(accountLoginPath(path));
  if (access.kind !== "member") notFound();
  const csrfToken = csrfTokenFromCookies(h.get("cookie"), authSecret());
  if (!csrfToken && !cookieCheck) redirect(`/api/auth/csrf-cookie?callbackUrl=${encodeURIComponent(path)}`);
  const { school, session, origin } = access;
  return { member: { schoolId: school.id, userId: session.userId }, school, session, origin, csrfToken: csrfToken ?? "" };
});

export function accountMetadata(title: string): () => Promise<Metadata> {
  return async () => {
    const access = await accountAccess({ headers: await headers() }).catch(() => null);
    const school = access && access.kind !== "no_school" ? access.school.name : null;
    return { title: { absolute: school ? `${title} · Your account · ${school}` : `${title} · Your account` }, robots: { index: false } };
  };
}

const SECTIONS: { key: keyof typeof ACCOUNT_PAGES; label: string }[] = [
  { key: "profile", label: "Profile" },
  { key: "memberships", label: "Memberships" },
  { key: "payments", label: "Payments" },
  { key: "courses", label: "Courses" },
  { key: "apps", label: "Connected apps" },
  { key: "sessions", label: "Sessions" },
];

/** Every account page: its heading, the account's navigation, and what the last form did. */
export function AccountShell(props: { current: keyof typeof ACCOUNT_PAGES; title: string; params: Record<string, string | string[] | undefined>; children: ReactNode }) {
  const notice = accountNotice({ done: one(props.params.done), error: one(props.params.error) });
  return (
    <main className="wrap">
      <h1>{props.title}</h1>
      <nav aria-label="Your account">
        <ul className="account-nav">
          {SECTIONS.map((s) => (
            <li key={s.key}>
              <a href={ACCOUNT_PAGES[s.key]} aria-current={s.key === props.current ? "page" : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {notice ? (
        <p className={notice.kind === "error" ? "error" : "done"} role={notice.kind === "error" ? "alert" : "status"}>
          {notice.text}
        </p>
      ) : null}
      {props.children}
    </main>
  );
}

/** A POST form to one account action, with the CSRF token. */
export function AccountForm(props: { action: string; csrfToken: string; className?: string; children: ReactNode }) {
  return (
    <form className={props.className ?? "stack"} method="post" action={`${ACCOUNT_FORMS_PATH}/${props.action}`}>
      <input type="hidden" name="csrfToken" value={props.csrfToken} />
      {props.children}
    </form>
  );
}

/**
 * One labelled input of a form (the account pages, forgot and set password): the label wraps the
 * input, and a note, when given, is read with it (aria-describedby names the note's id).
 */
export function AccountField({ label, note, noteId, ...input }: { label: string; note?: ReactNode; noteId?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = note && noteId ? noteId : input["aria-describedby"];
  return (
    <>
      <label>
        {label}
        <input {...input} aria-describedby={describedBy} />
      </label>
      {note ? (
        <p id={noteId} className="meta">
          {note}
        </p>
      ) : null}
    </>
  );
}

/** A form's submit button, on its own line (a stack form would stretch it). */
export function SubmitButton({ children, secondary }: { children: ReactNode; secondary?: boolean }) {
  return (
    <div>
      <button className={secondary ? "button secondary" : "button"} type="submit">
        {children}
      </button>
    </div>
  );
}

/** What went wrong with the last submit of a form, read out at once (role alert); nothing when there is nothing to say. */
export function FormAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="error" role="alert">
      {children}
    </p>
  );
}

/** A form of one button acting on one row (an app to disconnect, a session to end). */
export function AccountButton(props: { action: string; csrfToken: string; name: string; value: string; children: ReactNode }) {
  return (
    <AccountForm action={props.action} csrfToken={props.csrfToken}>
      <input type="hidden" name={props.name} value={props.value} />
      <SubmitButton secondary>{props.children}</SubmitButton>
    </AccountForm>
  );
}

export function CookiesNeeded() {
  return (
    <p className="error" role="alert">
      Your browser did not keep this site&apos;s form cookie. Allow cookies for this site and reload the page to change anything here.
    </p>
  );
}

export const formatDate = (d: Date | null) => (d ? new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" }).format(d) : "—");
export const formatDateTime = (d: Date) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(d) + " UTC";
