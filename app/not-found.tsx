import { headers } from "next/headers";
import Link from "next/link";
import { resolveSchool } from "@/lib/tenancy/resolve-school";

export default async function NotFound() {
  // Where no school answers, the home page is this same 404: linking to it would be a loop.
  const school = await resolveSchool(await headers()).catch(() => undefined);
  if (school === null) {
    return (
      <main className="wrap">
        <h1>Page not found</h1>
        <p className="lead">No school is served at this address.</p>
        <p>Each school has its own address; check the link you followed, or ask the school for it.</p>
      </main>
    );
  }
  return (
    <main className="wrap">
      <h1>Page not found</h1>
      <p className="lead">There is nothing at this address.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </main>
  );
}
