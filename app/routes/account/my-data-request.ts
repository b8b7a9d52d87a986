/**
 * `POST /account/my-data` (docs/product.md#download-my-data, issue #36): "Download my data" as a real
 * file download. A resource route — React Router sends its Response as it is: the ZIP with
 * `Content-Type: application/zip` and `Content-Disposition: attachment`, so the browser saves it and
 * the page stays where it is. The account page's form posts here natively (`reloadDocument` with
 * JavaScript, a plain form post without). What is not a file — a large export queued for a mailed
 * link, one being prepared already, the hourly limit — sends the browser back to the account page
 * (303), whose "Your data" section says so (`?my-data=`, {@link myDataNotice}). A GET goes to the page.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/my-data-request";
import { servicesContext } from "#app/context";
import { exportResponse, requestDataExport } from "#app/features/privacy/data-export.server";
import { requireRole, requireUser } from "#app/features/users/session.server";
import { AppError } from "#app/lib/errors";
import type { MyDataNotice } from "#app/features/privacy/privacy.messages";

export const middleware: Route.MiddlewareFunction[] = [requireRole("client", "ambassador", "admin")];

const back = (notice: MyDataNotice, headers?: HeadersInit) =>
  redirect(`/account/privacy?my-data=${notice}#my-data`, { status: 303, headers });

/** A GET (a typed or followed link) shows the account page's "Your data" section. */
export function loader() {
  return redirect("/account/privacy#my-data");
}

/** Builds and sends the signed-in user's ZIP, or queues it and says so on the account page. */
export async function action({ context }: Route.ActionArgs) {
  try {
    const result = await requestDataExport(context.get(servicesContext).db, requireUser(context));
    return "queued" in result ? back("queued") : exportResponse(result);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === "RATE_LIMITED") return back("limit", { "Retry-After": String(error.retryAfterSeconds ?? 3600) });
    if (error.code === "CONFLICT") return back("pending");
    throw error;
  }
}
