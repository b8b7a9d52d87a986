/**
 * Signs a seeded account in through the app's own form, for benchmarks that load portal pages.
 */
import { DEMO_PASSWORD } from "../../scripts/seed-demo";

/**
 * Posts the sign-in form of the app at `baseUrl`.
 *
 * @param email - a seeded account (e.g. `DEMO_ACCOUNTS.admin`); its password is `DEMO_PASSWORD` unless given.
 * @param options.forwardedFor - sent as `X-Forwarded-For`, so that benchmarks signing many users in from one
 *   machine are not taken for one client by the sign-in throttle (the app trusts loopback in benchmarks).
 * @returns the `Cookie` header value of the new session.
 * @throws {Error} when the answer carries no session cookie.
 */
export async function signIn(baseUrl: string, email: string, options: { password?: string; forwardedFor?: string } = {}): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseUrl,
      ...(options.forwardedFor ? { "x-forwarded-for": options.forwardedFor } : {}),
    },
    body: new URLSearchParams({ email, password: options.password ?? DEMO_PASSWORD }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error(`sign-in of ${email} failed (${response.status})`);
  return cookie;
}
