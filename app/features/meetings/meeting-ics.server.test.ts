import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { meetingIcs } from "./meeting-ics.server";

describe("meetingIcs", () => {
  it("holds the right start instant for a client in a non-UTC time zone, one hour long", () => {
    // 2026-12-03 14:30 in New York (EST, UTC-5) is 19:30 UTC.
    const startsAt = new Date("2026-12-03T19:30:00Z");
    const text = meetingIcs({
      id: 7,
      startsAt,
      timeZone: "America/New_York",
      title: "Meeting with Rivera Web Studio",
      notes: "Discuss the homepage",
      url: "https://portal.example.com/client-dashboard",
      organizer: { name: "Rivera Web Studio", email: "hello@example.com" },
      attendee: { name: "Blue Cafe", email: "owner@bluecafe.example" },
    });
    const component = new ICAL.Component(ICAL.parse(text));
    const event = new ICAL.Event(component.getFirstSubcomponent("vevent")!);
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-03T19:30:00.000Z");
    expect(event.startDate.zone?.tzid).toBe("UTC");
    expect(event.endDate.toJSDate().toISOString()).toBe("2026-12-03T20:30:00.000Z");
    expect(event.uid).toBe("meeting-7@client-portal");
    expect(String(event.organizer).toLowerCase()).toBe("mailto:hello@example.com");
    expect(event.summary).toBe("Meeting with Rivera Web Studio");
    expect(event.description).toContain("Thursday, December 3, 2026 at 2:30 PM (America/New_York)");
    expect(event.description).toContain("Discuss the homepage");
  });
});
