import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "./request-handler";

const post = (origin?: string, method = "POST") =>
  new Request("http://127.0.0.1:3000/logout", { method, headers: origin === undefined ? {} : { origin } });

describe("the cross-site check of every route", () => {
  it("lets same-origin posts and posts without Origin through", () => {
    expect(crossSiteRefusal(post("http://127.0.0.1:3000"))).toBeNull();
    expect(crossSiteRefusal(post())).toBeNull();
    expect(crossSiteRefusal(post("http://attacker.test", "GET"))).toBeNull();
  });
  it("refuses another site, another port or scheme, null and garbage", () => {
    for (const origin of [
      "http://attacker.test",
      "http://127.0.0.1:3001",
      "https://127.0.0.1:3000",
      "http://localhost:3000",
      "null",
      "not a url",
      "",
    ]) {
      expect(crossSiteRefusal(post(origin)), origin).toMatchObject({ status: 400 });
    }
    expect(crossSiteRefusal(post("http://attacker.test", "DELETE"))).toMatchObject({ status: 400 });
  });
});
