import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { zoneOptionsHtml } from "./slot-picker";

describe("zoneOptionsHtml (the zone list of the day picker, issue #42)", () => {
  const zones = ["America/New_York", "Europe/Paris", "UTC"];

  it("writes every zone once, in order, with the chosen one selected", () => {
    const html = zoneOptionsHtml(zones, "Europe/Paris");
    expect(html).toBe(
      '<option value="America/New_York">America/New_York</option><option value="Europe/Paris" selected="">Europe/Paris</option><option value="UTC">UTC</option>',
    );
    // The list built once is not changed by one rendering's choice.
    expect(zoneOptionsHtml(zones, "UTC")).toContain('<option value="Europe/Paris">Europe/Paris</option><option value="UTC" selected="">');
  });

  it("selects nothing for a zone not in the list, and escapes what it writes", () => {
    expect(zoneOptionsHtml(zones, "Mars/Olympus")).not.toContain("selected");
    expect(zoneOptionsHtml(['A"<b>&'], 'A"<b>&')).toBe('<option value="A&quot;&lt;b&gt;&amp;" selected="">A&quot;&lt;b&gt;&amp;</option>');
  });

  it("renders the same options as React elements would, the chosen one selected", () => {
    const asElements = renderToString(
      createElement(
        "select",
        { defaultValue: "Europe/Paris" },
        zones.map((zone) => createElement("option", { key: zone, value: zone }, zone)),
      ),
    );
    const asString = renderToString(
      createElement("select", { dangerouslySetInnerHTML: { __html: zoneOptionsHtml(zones, "Europe/Paris") } }),
    );
    expect(asString).toBe(asElements);
  });
});
