/**
 * Runs before each test file (vitest.config.ts `setupFiles`).
 *
 * Password hashing, computed once per password: better-auth's scrypt costs 60–200 ms of CPU per
 * call, and the suite registers, creates and signs in thousands of times with the same few
 * passwords ("secret-pass", "admin-pass" …) — before this, a good part of the suite's CPU time
 * (issue #42). Here the first hash of a password and the first verdict on a (hash, password)
 * pair are computed by the app's real scrypt (app/features/users/password-hashing.server.ts) and
 * remembered for the worker's later calls: stored hashes keep the real format and parameters,
 * a wrong password is still refused by scrypt, and a hash made elsewhere (the demo seed, a copied
 * row) is verified for real the first time. What changes in tests: two accounts with the same
 * password get the same salt, and the scrypt time is paid once.
 */
import { passwordHashing } from "#app/features/users/password-hashing.server";

const WRAPPED = Symbol.for("portal.passwordHashing.memo");
type Memo = typeof passwordHashing & { [WRAPPED]?: true };

/** Remembers a settled promise per key; a rejected one is forgotten (the next call tries again). */
function remembered<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let pending = cache.get(key);
  if (!pending) {
    pending = make();
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

const hashing = passwordHashing as Memo;
// Test files of a worker share its modules (isolate: false): wrap once.
if (!hashing[WRAPPED]) {
  const real = { hash: hashing.hash, verify: hashing.verify };
  const hashes = new Map<string, Promise<string>>();
  const verdicts = new Map<string, Promise<boolean>>();
  hashing.hash = (password) => remembered(hashes, password, () => real.hash(password));
  hashing.verify = (data) => remembered(verdicts, `${data.hash}\u0000${data.password}`, () => real.verify(data));
  hashing[WRAPPED] = true;
}
