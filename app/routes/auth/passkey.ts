/**
 * Passkey steps for the browser's WebAuthn calls (docs/product.md#account-page), JSON in and
 * out: `register-options` and `register` (signed in, from /account), `sign-in-options` and
 * `sign-in` (from /login). Each calls better-auth's passkey plugin on the server; the
 * challenge and the session travel as better-auth's cookies. Only same-origin JSON posts.
 */
import type { Route } from "./+types/passkey";
import { servicesContext } from "#app/context";
import { PASSKEY_STEPS, type PasskeyStepName } from "#app/features/users/account.schema";
import { passkeySignInOptions, signInWithPasskey } from "#app/features/users/account/passkey-sign-in.server";
import { passkeyRegistrationOptions, registerPasskey, type PasskeyStep } from "#app/features/users/account/passkeys.server";
import { sessionUserContext } from "#app/features/users/session.server";
import { AppError, forbidden } from "#app/lib/errors";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";

export async function loader() {
  throw new AppError("NOT_FOUND", "Not found.");
}

/** POST /passkey/:step (JSON). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const step = params.step as PasskeyStepName;
  if (request.method !== "POST" || !PASSKEY_STEPS.includes(step)) throw new AppError("NOT_FOUND", "Not found.");
  const { env } = context.get(servicesContext);
  if (request.headers.get("origin") !== env.origin) throw forbidden("This request must come from the site itself.");
  if (!request.headers.get("content-type")?.startsWith("application/json")) throw new AppError("INVALID_INPUT", "JSON expected.");
  const body = (await request.json().catch(() => null)) as { response?: unknown; name?: unknown } | null;
  const deps = accountDeps(context);
  const meta = requestMeta(request, context);
  const signedIn = context.get(sessionUserContext);
  let result: PasskeyStep;
  if (step === "register-options" || step === "register") {
    if (!signedIn) throw new AppError("UNAUTHORIZED", "Sign in first.");
    if (step === "register-options") result = await passkeyRegistrationOptions(deps, meta);
    else {
      if (!body || typeof body.response !== "object" || body.response === null)
        throw new AppError("INVALID_INPUT", "The passkey answer is missing.");
      result = await registerPasskey(
        deps,
        { response: body.response, name: typeof body.name === "string" ? body.name.trim() : undefined },
        meta,
      );
    }
  } else if (step === "sign-in-options") {
    result = await passkeySignInOptions(deps, meta);
  } else {
    if (!body || typeof body.response !== "object" || body.response === null)
      throw new AppError("INVALID_INPUT", "The passkey answer is missing.");
    result = await signInWithPasskey(deps, body.response, meta);
  }
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return Response.json(result.body, { headers });
}
