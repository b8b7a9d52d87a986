import { redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/theme";
import { servicesContext } from "#app/context";
import { formAction } from "#app/lib/form-action.server";
import { optionalText } from "#app/lib/text-fields";
import { safeReturnPath, themeCookieHeader, THEMES } from "#app/lib/theme";

const themeSchema = z.object({
  theme: z.enum(THEMES, { error: "Choose light, dark or system." }),
  returnTo: optionalText("Return path", 2_000),
});

/** A GET (e.g. a bookmarked form URL) has nothing to show: back to the home page. */
export function loader() {
  return redirect("/");
}

/**
 * The theme toggle's form post (docs/product.md#dark-mode): remembers the choice in a cookie for a
 * year and goes back (303) to the page the form was on. Works without JavaScript.
 */
export async function action(args: Route.ActionArgs) {
  const secure = args.context.get(servicesContext).env.origin.startsWith("https:");
  return formAction(args, themeSchema, async (value) =>
    redirect(safeReturnPath(value.returnTo), { status: 303, headers: { "Set-Cookie": themeCookieHeader(value.theme, secure) } }),
  );
}
