import autocannon from "autocannon";
import { startApp } from "./lib/server";
const app = await startApp({ DATABASE_URL: "" });
const r = await fetch(`${app.baseUrl}/register`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ businessName: "P", email: `p${Date.now()}@example.com`, phone: "1", password: "load-pass-1" }) });
const cookie = r.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
for (const [path, c] of [["/login", 1], ["/client-dashboard", 1], ["/client-dashboard", 10], ["/about", 10]] as const) {
  const res = await autocannon({ url: `${app.baseUrl}${path}`, connections: c, duration: 4, headers: { cookie } });
  console.log(path, c, "rps", res.requests.average, "p50", res.latency.p50, "statuses", res["2xx"], res.non2xx);
}
await app.stop();
