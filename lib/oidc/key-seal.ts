import { seal, unseal } from "../credentials/sealed";

// Private signing keys at rest: sealed like webhook secrets (AES-256-GCM under AUTH_SECRET), under a
// key of their own. A copy of the database alone cannot sign ID tokens (docs/security.md).
const PURPOSE = "schoolhouse oidc signing keys v1";

export const sealPrivateKey = (privateJwk: string, authSecret: string): string => seal(privateJwk, { authSecret, purpose: PURPOSE });

/** The private JWK (JSON), or an error when it was not sealed under this AUTH_SECRET (or was altered). */
export const openPrivateKey = (stored: string, authSecret: string): string => unseal(stored, { authSecret, purpose: PURPOSE });
