import Link from "next/link";

export default function NotFound() {
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
