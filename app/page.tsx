import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { db } from "@/lib/db/client";
import { resolveSchool } from "@/lib/tenancy/resolve-school";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const school = await resolveSchool(await headers());
  if (!school) notFound();
  const home = await db().homePage.findUnique({ where: { schoolId: school.id } });
  return (
    <>
      <header className="site-header">
        <div className="wrap">
          <Link className="brand" href="/">
            {school.name}
          </Link>
        </div>
      </header>
      <main className="wrap">
        <h1>{home?.title ?? school.name}</h1>
        <p className="lead">{home?.tagline ?? school.description}</p>
      </main>
    </>
  );
}
