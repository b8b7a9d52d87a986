import { redirect } from "react-router";

/** `/ambassador` → the dashboard. */
export async function loader() {
  return redirect("/ambassador/dashboard");
}
