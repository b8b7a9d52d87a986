/**
 * The password hashing better-auth uses for this app: its own scrypt (N = 16384, r = 16, p = 1,
 * 64-byte key; stored as `<salt hex>:<key hex>`), about 60–200 ms of CPU per call.
 *
 * `createAuth` (./auth.server) calls these two functions through this object at every use, so a
 * test run can wrap them: the vitest setup (tests/helpers/vitest-setup.ts) remembers the hash of
 * each password and the verdict of each (hash, password) pair it has computed once with this very
 * scrypt, because hundreds of tests register and sign in with the same few passwords (issue #42:
 * a test suite that fits in a stop). The app itself never changes them.
 */
import { hashPassword, verifyPassword } from "better-auth/crypto";

export interface PasswordHashing {
  /** @returns the stored form of `password` (a new random salt each call). */
  hash(password: string): Promise<string>;
  /** @returns whether `password` is the one `hash` was made from. @throws on a malformed hash. */
  verify(data: { hash: string; password: string }): Promise<boolean>;
}

/** better-auth's scrypt hashing, as `createAuth` uses it (see the module comment). */
export const passwordHashing: PasswordHashing = {
  hash: (password) => hashPassword(password),
  verify: (data) => verifyPassword(data),
};
