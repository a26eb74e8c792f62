import { hash, verify } from "@node-rs/argon2";

// Argon2id with the library's defaults (19 MiB, 2 passes, 1 lane): the
// OWASP-recommended minimum, about 60 ms a hash on this machine's class.
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A fixed hash to verify against when no user matches, so a login for an
// unknown e-mail costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash("not-a-real-password");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
