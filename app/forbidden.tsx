import Link from "next/link";

// The console's 403 (forbidden() in lib/console-checked pages and actions): a role the permission
// matrix (lib/console/permissions.ts) does not allow here. Nothing was changed.
export default function ConsoleForbidden() {
  return (
    <main className="wrap">
      <h1>This page is not open to you</h1>
      <p>Your role at this school does not include this part of the staff console. Nothing was changed.</p>
      <p>
        <a href="/login">Sign in with another account</a> or <Link href="/">go to the school&apos;s site</Link>.
      </p>
    </main>
  );
}
