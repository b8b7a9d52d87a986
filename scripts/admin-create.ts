/**
 * Creates an admin account, or makes an existing account an admin with a new password.
 *
 *   npm run admin:create -- --email you@example.com --password 'a long password' [--name "Your Name"]
 *
 * Uses the same configuration as the server (DATABASE_URL, DATA_DIR, .env). On the
 * embedded database, stop the server first (PGlite allows one process at a time).
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/client.server";
import { createAdmin } from "../app/features/users/accounts.server";
import { createAuth, resolveAuthSecret } from "../app/features/users/auth.server";
import { parseEnv } from "../app/lib/env.server";

async function main() {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } } });
  const env = parseEnv();
  if (!values.email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) throw new Error("Give a valid --email.");
  if (!values.password || values.password.length < env.PASSWORD_MIN_LENGTH) {
    throw new Error(`Give a --password of at least ${env.PASSWORD_MIN_LENGTH} characters.`);
  }
  const handle = env.DATABASE_URL ? await openDatabase({ url: env.DATABASE_URL }) : await openDatabase({ pgliteDir: env.pgliteDir });
  try {
    await handle.migrate();
    const auth = createAuth({ db: handle.db, env, secret: await resolveAuthSecret(handle.db, env.BETTER_AUTH_SECRET) });
    const result = await createAdmin({ db: handle.db, auth }, { email: values.email, password: values.password, name: values.name });
    console.log(
      result.created
        ? `Created admin ${values.email.toLowerCase()}.`
        : `${values.email.toLowerCase()} is now an admin with the new password.`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
