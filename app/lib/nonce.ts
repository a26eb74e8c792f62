import { createContext, useContext } from "react";

// The Content-Security-Policy nonce of the document being rendered on the
// server (app/server/security-headers.ts): inline scripts carry it. In the
// browser it is undefined; scripts added after hydration are the app's own
// files, which the policy allows.
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
