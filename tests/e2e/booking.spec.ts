/**
 * Meetings booked from the agency's availability (docs/product.md#availability,
 * #meetings-scheduling, #meeting-changes, #client-meetings): the admin sets the weekly hours in
 * Berlin, a client in New York sees only slots inside them in their own zone, a booked slot is gone
 * for the next client, two bookings of one slot at once make one meeting, a reschedule mails the
 * same UID with a higher SEQUENCE, the cutoff stops the client, past meetings are listed apart.
 */
import ICAL from "ical.js";
import type { ParsedMail } from "mailparser";
import type { Browser, Page } from "@playwright/test";
import { adminPage, expect, hydrated, registerClient, test, waitForMail, uniqueIp } from "./fixtures";

const NEW_YORK = "America/New_York";

/** A signed-in client in a browser whose zone is New York. */
async function clientInNewYork(browser: Browser, options: { javaScriptEnabled?: boolean } = {}): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    timezoneId: NEW_YORK,
    extraHTTPHeaders: { "x-forwarded-for": uniqueIp() },
    ...options,
  });
  const page = await context.newPage();
  const { email } = await registerClient(page, { businessName: `Bakery ${Date.now() % 100_000}` });
  return { page, email };
}

/** Wall-clock weekday and `HH:MM` of an instant in a zone. */
function wallClock(iso: string, timeZone: string): { weekday: string; time: string } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { weekday: get("weekday"), time: `${get("hour")}:${get("minute")}` };
}

/** The slot radios' values (ISO instants) on the booking page. */
async function slotValues(page: Page): Promise<string[]> {
  return page.locator('input[name="slot"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
}

/** The meeting invite attached to a mail, parsed with ical.js. */
function inviteOf(mail: ParsedMail) {
  const attachment = mail.attachments.find((a) => a.filename?.endsWith(".ics"));
  if (!attachment) throw new Error("no .ics attached");
  const component = new ICAL.Component(ICAL.parse(attachment.content.toString("utf8")));
  return { method: component.getFirstPropertyValue("method"), event: new ICAL.Event(component.getFirstSubcomponent("vevent")!) };
}

test.describe.serial("booking from availability", () => {
  test("admin hours in Berlin, slots in New York, one meeting per slot, reschedule with a higher SEQUENCE, cutoff, past meetings", async ({
    browser,
    sql,
  }) => {
    test.setTimeout(180_000);
    // The admin sets weekly hours: Mon–Fri 09:00–17:00 in Berlin, 30 min, 15 min buffer, 24 h notice.
    const admin = await adminPage(browser);
    await admin.goto("/admin/settings");
    await admin.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Availability" }).click();
    await expect(admin).toHaveURL(/\/admin\/settings\/availability$/);
    await hydrated(admin);
    await admin.getByLabel("Your time zone").selectOption("Europe/Berlin");
    for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])
      await admin.getByLabel(day, { exact: true }).fill("09:00-17:00");
    for (const day of ["Saturday", "Sunday"]) await admin.getByLabel(day, { exact: true }).fill("");
    await admin.getByLabel("Meeting length (minutes)").fill("30");
    await admin.getByLabel("Buffer between meetings (minutes)").fill("15");
    await admin.getByLabel("Minimum notice (hours)").fill("24");
    await admin.getByLabel("Booking horizon (days)").fill("60");
    await admin.getByLabel("Changes allowed until (hours before)").fill("12");
    await admin.getByLabel("Dates off (optional)").fill("");
    await admin.getByRole("button", { name: "Save availability" }).click();
    await expect(admin.getByText("Availability saved.")).toBeVisible();
    await expect(admin.locator(":focus")).toContainText("Availability saved.");
    // What was saved is what the form shows again (normalised with an en dash).
    await admin.reload();
    await expect(admin.getByLabel("Monday", { exact: true })).toHaveValue("09:00–17:00");

    // A client in New York sees only slots inside those hours, shown in their own zone.
    const first = await clientInNewYork(browser);
    await first.page.goto("/client-dashboard"); // the browser states its zone (tz cookie)
    await hydrated(first.page);
    await first.page.goto("/meetings/book");
    await expect(first.page.getByTestId("slot-zone")).toContainText(NEW_YORK);
    const dayLinks = first.page.getByRole("navigation", { name: "Days with free times" }).getByRole("link");
    await expect(dayLinks.first()).toBeVisible();
    // A day a few days out (other tests may book too): choose it, read its slots.
    const dayHref = (await dayLinks.nth(Math.min(3, (await dayLinks.count()) - 1)).getAttribute("href"))!;
    const day = /day=(\d{4}-\d{2}-\d{2})/.exec(dayHref)![1]!;
    await first.page.goto(`/meetings/book?day=${day}`);
    const slots = await slotValues(first.page);
    expect(slots.length).toBeGreaterThan(2);
    const now = Date.now();
    for (const slot of slots) {
      const berlin = wallClock(slot, "Europe/Berlin");
      expect(["Sat", "Sun"], slot).not.toContain(berlin.weekday);
      expect(berlin.time >= "09:00" && berlin.time <= "16:30", `${slot} is ${berlin.time} in Berlin`).toBe(true);
      expect(new Date(slot).getTime()).toBeGreaterThan(now + 24 * 3_600_000 - 60_000);
      // The label is the New York wall-clock time.
      const label = new Intl.DateTimeFormat("en-US", { timeZone: NEW_YORK, hour: "numeric", minute: "2-digit" }).format(new Date(slot));
      await expect(first.page.locator(`label:has(input[value="${slot}"])`)).toHaveText(label);
    }

    // The first client books a slot.
    const target = slots[1]!;
    await first.page.locator(`input[value="${target}"]`).check();
    await first.page.getByLabel("Notes (optional)").fill("Homepage ideas");
    await first.page.getByRole("button", { name: "Request meeting" }).click();
    await expect(first.page).toHaveURL(/\/meetings\?notice=booked$/);
    await expect(first.page.getByText("Meeting requested. We will confirm it soon.")).toBeVisible();
    const booked = await first.page.getByRole("list", { name: "Upcoming meetings" }).getByTestId("meeting-item").count();
    expect(booked).toBe(1);

    // A second client no longer sees it, nor the slot inside its buffer.
    const second = await clientInNewYork(browser);
    await second.page.goto(`/meetings/book?day=${day}&tz=${encodeURIComponent(NEW_YORK)}`);
    const left = await slotValues(second.page);
    expect(left).not.toContain(target);
    expect(left).not.toContain(new Date(new Date(target).getTime() + 30 * 60_000).toISOString());

    // Two clients book one slot at the same moment: one meeting, one clear message.
    const third = await clientInNewYork(browser);
    const contested = left.find((s) => s !== target && Math.abs(new Date(s).getTime() - new Date(target).getTime()) > 3_600_000)!;
    const [a, b] = await Promise.all(
      [second.page, third.page].map((p) =>
        p.request.post("/meetings/book", { form: { slot: contested, timeZone: NEW_YORK, notes: "" }, maxRedirects: 0 }),
      ),
    );
    expect([a!.status(), b!.status()].sort()).toEqual([302, 409]);
    const refused = a!.status() === 409 ? a! : b!;
    expect(await refused.text()).toContain("That time is no longer free");
    const { rows: held } = await sql.query(
      "select count(*)::int as n from meeting where starts_at = $1 and status in ('pending', 'accepted')",
      [contested],
    );
    expect(held[0].n).toBe(1);
    // The refused one sees the message next to the slots when it posts through the page.
    const loser = a!.status() === 409 ? second.page : third.page;
    await loser.goto(`/meetings/book?day=${day}&tz=${encodeURIComponent(NEW_YORK)}`);
    await expect(loser.locator(`input[value="${contested}"]`)).toHaveCount(0);

    // The first client reschedules before the cutoff: the agency's mail carries the same UID, a higher SEQUENCE.
    const { rows: mine } = await sql.query(
      `select m.id from meeting m join "user" u on u.id = m.user_id where u.email = $1 and m.starts_at = $2`,
      [first.email, target],
    );
    const meetingId = mine[0].id as number;
    const uid = `meeting-${meetingId}@client-portal`;
    const requested = await waitForMail(
      (m) => /^New meeting request/.test(m.subject ?? "") && (m.attachments[0]?.content.toString() ?? "").includes(uid),
    );
    expect(inviteOf(requested).event.sequence).toBe(0);
    await first.page.getByRole("link", { name: "Reschedule" }).click();
    await expect(first.page).toHaveURL(new RegExp(`/meetings/${meetingId}/reschedule`));
    await first.page.goto(`/meetings/${meetingId}/reschedule?day=${day}`);
    const moveTo = (await slotValues(first.page)).find((s) => s !== target && s !== contested)!;
    await first.page.locator(`input[value="${moveTo}"]`).check();
    await first.page.getByRole("button", { name: "Move meeting" }).click();
    await expect(first.page).toHaveURL(/\/meetings\?notice=rescheduled$/);
    await expect(first.page.getByText("Meeting moved.")).toBeVisible();
    const moved = await waitForMail(
      (m) => /^Meeting moved/.test(m.subject ?? "") && (m.attachments[0]?.content.toString() ?? "").includes(uid),
    );
    const invite = inviteOf(moved);
    expect(invite.event.uid).toBe(uid);
    expect(invite.event.sequence).toBeGreaterThan(inviteOf(requested).event.sequence);
    expect(invite.event.startDate.toJSDate().toISOString()).toBe(moveTo);

    // After the cutoff (12 h before) the client can no longer change it and is told to write.
    await sql.query(
      "update meeting set starts_at = now() + interval '6 hours', ends_at = now() + interval '6 hours 30 minutes', blocked_until = null where id = $1",
      [meetingId],
    );
    await first.page.goto("/meetings");
    const item = first.page.getByRole("list", { name: "Upcoming meetings" }).getByTestId("meeting-item");
    await expect(item.getByTestId("meeting-cutoff")).toContainText("Less than 12 hours to go");
    await expect(item.getByRole("link", { name: "Reschedule" })).toHaveCount(0);
    const late = await first.page.request.post("/meetings", { form: { intent: "cancel-meeting", id: String(meetingId), confirm: "yes" } });
    expect(late.status()).toBe(409);
    const lateMove = await first.page.request.post(`/meetings/${meetingId}/reschedule`, {
      form: { slot: left.at(-1)!, timeZone: NEW_YORK },
      maxRedirects: 0,
    });
    expect(lateMove.status()).toBe(409);

    // Past meetings are listed apart, without the calendar button.
    await sql.query(
      `insert into meeting (user_id, starts_at, ends_at, time_zone, status) select id, '2024-03-05T15:00:00Z', '2024-03-05T15:30:00Z', $2, 'accepted' from "user" where email = $1`,
      [first.email, NEW_YORK],
    );
    await first.page.reload();
    const pastList = first.page.getByRole("list", { name: "Past meetings" });
    await expect(pastList.getByTestId("meeting-item")).toHaveCount(1);
    await expect(pastList).toContainText("Mar 5, 2024");
    await expect(pastList.getByRole("link", { name: /Add to calendar/ })).toHaveCount(0);
    await expect(first.page.getByRole("list", { name: "Upcoming meetings" })).not.toContainText("2024");
    for (const p of [first.page, second.page, third.page, admin]) await p.context().close();
  });

  test("without JavaScript the day is a form field and the slots radio buttons", async ({ browser }) => {
    const { page } = await clientInNewYork(browser, { javaScriptEnabled: false });
    await page.goto("/meetings/book");
    const days = page.getByRole("navigation", { name: "Days with free times" }).getByRole("link");
    const href = (await days.nth(Math.min(5, (await days.count()) - 1)).getAttribute("href"))!;
    const day = /day=(\d{4}-\d{2}-\d{2})/.exec(href)![1]!;
    await page.getByLabel("Day", { exact: true }).fill(day);
    await page.getByLabel("Time zone").selectOption(NEW_YORK);
    await page.getByRole("button", { name: "Show free times" }).click();
    await expect(page).toHaveURL(new RegExp(`day=${day}`));
    await expect(page.getByTestId("slot-zone")).toContainText(NEW_YORK);
    const radios = page.getByRole("radio");
    const count = await radios.count();
    expect(count).toBeGreaterThan(0);
    await radios.nth(count - 1).check();
    await page.getByRole("button", { name: "Request meeting" }).click();
    await expect(page).toHaveURL(/\/meetings\?notice=booked$/);
    await expect(page.getByText("Meeting requested. We will confirm it soon.")).toBeVisible();
    await page.context().close();
  });
});
