import { HomeLink } from "./not-found-home-link";

// Static (no headers()): the storefront's cached pages (app/%5Fsite) render within this root.
export default function NotFound() {
  return (
    <main className="wrap">
      <h1>Page not found</h1>
      <HomeLink />
    </main>
  );
}
