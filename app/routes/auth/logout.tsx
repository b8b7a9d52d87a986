import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { signOut } from "#app/features/users/accounts.server";
import { accountDeps } from "#app/features/users/auth-context.server";
import { requestMeta } from "#app/lib/request.server";

/** Logout (docs/product.md#header-bars): signs out on the server and goes to /login. */
export async function action({ request, context }: Route.ActionArgs) {
  const headers = await signOut(accountDeps(context), requestMeta(request, context));
  return redirect("/login", { headers });
}

/** A GET never signs out (links are prefetched); it just goes to /login. */
export async function loader() {
  return redirect("/login");
}
