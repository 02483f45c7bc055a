// What the bench's peer (bench/peer-server.ts) and the bench's side of it (bench/peer.ts) agree on.
export const PEER_CLIENT_ID = "bench-peer-client";
export const PEER_REDIRECT_URI = "http://127.0.0.1/callback";
export const PEER_ACCOUNT = "bench-member";
export const PEER_BARE_PATH = "/bare";
/** What the peer's client asks for: an ID token is signed with every refresh, as ours does for token-refresh. */
export const PEER_SCOPE = "openid offline_access";
export const PEER_READY_LINE = "peer ready";
