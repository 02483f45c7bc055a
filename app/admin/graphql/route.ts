// The Admin API. proxy.ts answers GET, POST and OPTIONS of this path with these same handlers
// (./handlers.ts); the route serves whatever reaches it past the proxy.
export { GET, OPTIONS, POST } from "./handlers";

export const dynamic = "force-dynamic";
