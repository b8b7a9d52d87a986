/**
 * Global settings (docs/product.md#settings; edits them). One row, id 1; read with
 * defaults when it does not exist yet.
 */
import { todayIn } from "#app/lib/dates";
import { TERMS_MAX } from "#app/features/agreements/agreements.messages";
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database, Queryable } from "#app/db/client.server";
import { memoPrime, memoRead } from "#app/db/request-memo.server";
import { DEFAULT_CURRENCY } from "#app/lib/money";
import { changedFields, recordAudit } from "#app/features/audit/audit.server";
import { brandLogo, DEFAULT_WEEKLY_HOURS, settings } from "#app/db/schema";
import { assertRole, type Actor } from "#app/features/users/actor";
import { fieldError } from "#app/lib/errors";
import { moneyAskedOfClients, moneyAskedRefusal } from "#app/features/invoices/money-asked.server";
import { COMMISSION_HOLD_MESSAGES, STORAGE_QUOTA_MESSAGE } from "./settings.messages";
import { checkLogo, LOGO_MESSAGES, type StoredLogoType } from "./logo";
import { pngDecodes } from "./png-check.server";
import { rasterizeSvg } from "./logo-raster.server";
import {
  accentContrastMessage,
  contrastRatio,
  DUNNING_MESSAGES,
  isHttpsTemplate,
  MIN_ACCENT_CONTRAST,
  normalizeHexColor,
  SETTINGS_FIELD_MESSAGES,
  type SettingsInput,
} from "./settings.schema";

export type Settings = typeof settings.$inferSelect;

/** Defaults of docs/product.md#settings, commission 15 %. */
export const DEFAULT_SETTINGS: Omit<Settings, "updatedAt"> = {
  id: 1,
  companyName: "",
  supportEmail: "",
  defaultTimeline: "",
  allowNewClients: true,
  requireAdminTwoFactor: false,
  requireEmailVerification: false,
  commissionRateBps: 1500,
  currency: DEFAULT_CURRENCY,
  companyAddress: "",
  taxId: "",
  paymentInstructions: "",
  paymentLinkTemplate: "",
  accentColor: "",
  timeZone: "UTC",
  // Availability (docs/product.md#availability), the defaults of migration 0016.
  weeklyHours: DEFAULT_WEEKLY_HOURS,
  meetingMinutes: 30,
  meetingBufferMinutes: 0,
  minNoticeHours: 24,
  bookingHorizonDays: 60,
  datesOff: [],
  changeCutoffHours: 12,
  instantBooking: false,
  meetingLocation: "",
  requireClientPhone: false,
  commissionHoldDays: 30,
  defaultDepositPercent: 0,
  termsAndConditions: "",
  // #39 recurring billing (migration 0030).
  dunningRetryDays: [1, 3, 7],
  recurringCommissionMonths: 12,
  storageQuotaMb: 2048,
};

/** The company name mails, calendar invites, the authenticator app and passkeys show when Settings hold none. */
export const DEFAULT_COMPANY_NAME = "Client Portal";

/** @returns the company name to show: Settings' one, else {@link DEFAULT_COMPANY_NAME}. */
export function companyNameOf(s: Pick<Settings, "companyName">): string {
  return s.companyName || DEFAULT_COMPANY_NAME;
}

/** The settings row (or the defaults) and the logo's version (null without a logo). */
interface SettingsAndLogo {
  settings: Settings;
  logoVersion: string | null;
}

/**
 * Reads the settings row and the logo's version in one statement (every page shows both: the
 * portal header's brand), once per request on a request view (app/db/request-memo.server.ts).
 * Before the first save there is no settings row: the logo is then read on its own.
 */
function readSettingsAndLogo(q: Queryable): Promise<SettingsAndLogo> {
  return memoRead(q, SETTINGS_MEMO_KEY, async () => {
    const [row] = await q.select({ settings, logoVersion: LOGO_VERSION_SQL }).from(settings).limit(1);
    if (row) return row;
    const [logo] = await q.select({ version: brandLogo.version }).from(brandLogo).where(eq(brandLogo.id, 1));
    return settingsOrDefaults(null, logo?.version ?? null);
  });
}

/** The request memo's key of {@link readSettingsAndLogo} (app/db/request-memo.server.ts). */
const SETTINGS_MEMO_KEY = "settings";

/** SQL: the logo's version, or null without a logo. */
const LOGO_VERSION_SQL = sql<string | null>`(select ${brandLogo.version} from ${brandLogo} where ${brandLogo.id} = 1)`;

const settingsOrDefaults = (row: Settings | null, logoVersion: string | null): SettingsAndLogo => ({
  settings: row ?? { ...DEFAULT_SETTINGS, updatedAt: new Date(0) },
  logoVersion,
});

/**
 * For a statement that reads something else of the request (the session, issue #42): the columns
 * that bring the settings row and the logo's version with it — select them under these names from
 * a `left join settings on true` — and {@link primeSettings} hands them to the request's readers.
 */
export const SETTINGS_SELECTION = { settings, logoVersion: LOGO_VERSION_SQL };

/**
 * Gives a request view the settings another statement of the request brought (see
 * {@link SETTINGS_SELECTION}): {@link getSettings} and {@link getBrand} on that view then send
 * nothing. Without a request view it does nothing.
 *
 * @param row - the settings row of that statement (null: none saved yet, the defaults hold).
 */
export function primeSettings(q: Queryable, row: Settings | null, logoVersion: string | null): void {
  memoPrime(q, SETTINGS_MEMO_KEY, settingsOrDefaults(row, logoVersion));
}

/**
 * @returns the settings row, or the defaults when none was saved; read once per request on a
 *   request view of the database (app/db/request-memo.server.ts), every time otherwise. Treat it as
 *   read-only: the request's other readers share it.
 */
export async function getSettings(q: Queryable): Promise<Settings> {
  return (await readSettingsAndLogo(q)).settings;
}

/**
 * The agency's business day (issue #36): today's calendar date in Settings' time zone — what due
 * dates, overdue, dates received and deposit terms count from.
 *
 * @param now - the current instant.
 * @returns `{ today: "YYYY-MM-DD", timeZone }`.
 */
export async function businessDay(q: Queryable, now: Date = new Date()): Promise<{ today: string; timeZone: string }> {
  const { timeZone } = await getSettings(q);
  return { today: todayIn(now, timeZone), timeZone };
}

/**
 * Reads the settings for the admin form (docs/product.md#settings).
 *
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function getSettingsForAdmin(q: Queryable, actor: Actor): Promise<Settings> {
  assertRole(actor, "admin");
  return getSettings(q);
}

/**
 * Saves the global settings (docs/product.md#settings "set settings/global"): creates the row on first save,
 * afterwards replaces the fields given and leaves those absent as they are (each section of the
 * settings pages, issue #41, saves its own fields). `allowNewClients = false` closes client
 * registration at once (`registerClient` reads it); `requireEmailVerification` refuses the
 * sign-in of unverified addresses from the next attempt (docs/product.md#email-verification). When a field changes, one audit event
 * `updated` with the changed fields before/after is recorded in the same transaction
 *; saving the same values records nothing.
 *
 * The billing fields, payment link and accent colour are checked again here
 * (docs/product.md#settings): a non-https link or a colour that is not hex or too light for
 * white text is refused (400, next to its field) and nothing is saved.
 *
 * #37 (ADR 026, "no money asked without Stripe or payment instructions"): without card payments, a
 * save that leaves neither payment instructions nor a payment link while invoices are unpaid or sent
 * offers ask a deposit is refused (409 next to `paymentInstructions`, naming them); nothing is saved.
 *
 * @param input - validated values; `commissionRateBps` 0–10000 (basis points).
 * @param options.cardPayments - whether Stripe is configured (`cardPaymentsEnabled(env)`).
 * @returns the saved row.
 * @throws {AppError} 403 unless the actor is an admin; 400 on `commissionRatePercent` for a
 *   rate outside 0–100 %, on `paymentLinkTemplate` or `accentColor` when refused; 409 on
 *   `paymentInstructions` when clearing the last way to pay while money is asked.
 */
export async function saveSettings(
  db: Database,
  actor: Actor,
  input: SettingsInput,
  options: { cardPayments: boolean },
): Promise<Settings> {
  assertRole(actor, "admin");
  if (
    input.commissionRateBps !== undefined &&
    (!Number.isInteger(input.commissionRateBps) || input.commissionRateBps < 0 || input.commissionRateBps > 10_000)
  ) {
    throw fieldError("commissionRatePercent", "The rate must be between 0 and 100 %.");
  }
  if (
    input.commissionHoldDays !== undefined &&
    (!Number.isInteger(input.commissionHoldDays) || input.commissionHoldDays < 0 || input.commissionHoldDays > 365)
  ) {
    throw fieldError("commissionHoldDays", COMMISSION_HOLD_MESSAGES.range);
  }
  if (
    input.storageQuotaMb !== undefined &&
    !(Number.isInteger(input.storageQuotaMb) && input.storageQuotaMb >= 1 && input.storageQuotaMb <= 1_000_000)
  )
    throw fieldError("storageQuotaGb", STORAGE_QUOTA_MESSAGE);
  if (input.paymentLinkTemplate && !isHttpsTemplate(input.paymentLinkTemplate)) {
    throw fieldError("paymentLinkTemplate", SETTINGS_FIELD_MESSAGES.paymentLinkHttps);
  }
  const accent = input.accentColor ? normalizeHexColor(input.accentColor) : input.accentColor;
  if (accent === null) throw fieldError("accentColor", SETTINGS_FIELD_MESSAGES.accentFormat);
  const dunning = input.dunningRetryDays;
  if (dunning !== undefined && (dunning.length === 0 || dunning.length > 5 || dunning.some((d) => !Number.isInteger(d) || d < 1 || d > 60)))
    throw fieldError("dunningRetryDays", DUNNING_MESSAGES.range);
  const months = input.recurringCommissionMonths;
  if (months !== undefined && (!Number.isInteger(months) || months < 0 || months > 120))
    throw fieldError("recurringCommissionMonths", DUNNING_MESSAGES.months);
  const deposit = input.defaultDepositPercent;
  if (deposit !== undefined && (!Number.isInteger(deposit) || deposit < 0 || deposit > 100))
    throw fieldError("defaultDepositPercent", "Enter the deposit as a whole percent from 0 to 100.");
  if (accent && contrastRatio(accent, "#ffffff") < MIN_ACCENT_CONTRAST) throw fieldError("accentColor", accentContrastMessage(accent));
  return db.transaction(async (tx) => {
    // Serialises concurrent saves so each audit event's "before" is what it replaced.
    await tx.execute(sql`select pg_advisory_xact_lock(${SETTINGS_LOCK_ID})`);
    const current = await getSettings(tx);
    const values = {
      companyName: (input.companyName ?? current.companyName).slice(0, 200),
      supportEmail: (input.supportEmail ?? current.supportEmail).slice(0, 254),
      defaultTimeline: (input.defaultTimeline ?? current.defaultTimeline).slice(0, 200),
      allowNewClients: input.allowNewClients ?? current.allowNewClients,
      requireAdminTwoFactor: input.requireAdminTwoFactor ?? current.requireAdminTwoFactor,
      requireEmailVerification: input.requireEmailVerification ?? current.requireEmailVerification,
      requireClientPhone: input.requireClientPhone ?? current.requireClientPhone,
      commissionRateBps: input.commissionRateBps ?? current.commissionRateBps,
      commissionHoldDays: input.commissionHoldDays ?? current.commissionHoldDays,
      storageQuotaMb: input.storageQuotaMb ?? current.storageQuotaMb,
      companyAddress: (input.companyAddress ?? current.companyAddress).slice(0, 500),
      taxId: (input.taxId ?? current.taxId).slice(0, 50),
      paymentInstructions: (input.paymentInstructions ?? current.paymentInstructions).slice(0, 2_000),
      paymentLinkTemplate: (input.paymentLinkTemplate ?? current.paymentLinkTemplate).slice(0, 2_048),
      accentColor: accent ?? current.accentColor,
      defaultDepositPercent: input.defaultDepositPercent ?? current.defaultDepositPercent,
      termsAndConditions: (input.termsAndConditions ?? current.termsAndConditions).slice(0, TERMS_MAX),
      dunningRetryDays: dunning ? [...new Set(dunning)].sort((a, b) => a - b) : current.dunningRetryDays,
      recurringCommissionMonths: months ?? current.recurringCommissionMonths,
    };
    // #37: the last way to pay is not taken away while clients are asked to pay (checked under the lock).
    const couldPay = Boolean(current.paymentInstructions.trim() || current.paymentLinkTemplate.trim());
    const canPay = Boolean(values.paymentInstructions.trim() || values.paymentLinkTemplate.trim());
    if (!options.cardPayments && couldPay && !canPay) {
      const refusal = moneyAskedRefusal(await moneyAskedOfClients(tx));
      if (refusal) throw fieldError("paymentInstructions", refusal, "CONFLICT");
    }
    const { before, after } = changedFields(
      {
        companyName: current.companyName,
        supportEmail: current.supportEmail,
        defaultTimeline: current.defaultTimeline,
        allowNewClients: current.allowNewClients,
        requireAdminTwoFactor: current.requireAdminTwoFactor,
        requireEmailVerification: current.requireEmailVerification,
        requireClientPhone: current.requireClientPhone,
        commissionRateBps: current.commissionRateBps,
        commissionHoldDays: current.commissionHoldDays,
        storageQuotaMb: current.storageQuotaMb,
        companyAddress: current.companyAddress,
        taxId: current.taxId,
        paymentInstructions: current.paymentInstructions,
        paymentLinkTemplate: current.paymentLinkTemplate,
        accentColor: current.accentColor,
        defaultDepositPercent: current.defaultDepositPercent,
        termsAndConditions: current.termsAndConditions,
        dunningRetryDays: current.dunningRetryDays,
        recurringCommissionMonths: current.recurringCommissionMonths,
      },
      values,
    );
    const [row] = await tx
      .insert(settings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: settings.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    if (after) await recordAudit(tx, actor, { entity: "settings", entityId: 1, action: "updated", before, after });
    return row!;
  });
}

/** Arbitrary constant for the settings advisory lock. */
const SETTINGS_LOCK_ID = 727_274_006;

/** What every portal header and e-mail shows of the agency (docs/product.md#header-bars). */
export interface Brand {
  /** The company name from settings ("" when not set). */
  companyName: string;
  /** The logo's path on this site (`/brand/logo/<version>`), or null when none is saved. */
  logoPath: string | null;
  /** `#rrggbb`, or "" for the default colours. */
  accentColor: string;
}

/**
 * @returns the agency's name, logo path and accent colour (no logo bytes), read with the settings
 *   row in one statement (once per request on a request view of the database).
 */
export async function getBrand(q: Queryable): Promise<Brand> {
  const { settings: row, logoVersion } = await readSettingsAndLogo(q);
  return { companyName: row.companyName, accentColor: row.accentColor, logoPath: logoVersion ? logoPath(logoVersion) : null };
}

/** @returns the served path of a logo version. */
export function logoPath(version: string): string {
  return `/brand/logo/${version}`;
}

/**
 * Validates and saves the agency's logo (docs/product.md#settings), replacing any earlier
 * one; audited as a settings change (`logo` before/after: type and version). The file is
 * checked in memory before anything is written: nothing is saved when it is refused. An SVG is
 * drawn to a PNG here and only the PNG is kept: an SVG is never stored nor served.
 *
 * @param upload - the whole uploaded file.
 * @returns the new logo's path.
 * @throws {AppError} 403 unless the actor is an admin; 400 on `logo` when the file is
 *   empty, over 200 KB, not a PNG/JPEG/SVG, a damaged PNG, an SVG with active content, or one that cannot be drawn.
 */
export async function saveLogo(db: Database, actor: Actor, upload: Uint8Array): Promise<string> {
  assertRole(actor, "admin");
  const found = checkLogo(upload);
  if ("error" in found) throw fieldError("logo", found.error);
  if (found.type === "image/png" && !pngDecodes(upload)) throw fieldError("logo", LOGO_MESSAGES.pngDamaged);
  const bytes = found.type === "image/svg+xml" ? await rasterizeSvg(upload).catch(() => null) : upload;
  if (!bytes) throw fieldError("logo", LOGO_MESSAGES.svgUnreadable);
  const checked = { type: found.type === "image/svg+xml" ? ("image/png" as const) : found.type };
  const version = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETTINGS_LOCK_ID})`);
    const [current] = await tx.select({ version: brandLogo.version, contentType: brandLogo.contentType }).from(brandLogo);
    const values = { contentType: checked.type, dataBase64: Buffer.from(bytes).toString("base64"), version };
    await tx
      .insert(brandLogo)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: brandLogo.id, set: { ...values, updatedAt: sql`now()` } });
    if (current?.version !== version) {
      await recordAudit(tx, actor, {
        entity: "settings",
        entityId: 1,
        action: "updated",
        before: { logo: current ? { type: current.contentType, version: current.version } : null },
        after: { logo: { type: checked.type, version } },
      });
    }
    return logoPath(version);
  });
}

/**
 * Removes the agency's logo (headers and e-mails fall back to the company name).
 *
 * @returns whether there was one.
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function removeLogo(db: Database, actor: Actor): Promise<boolean> {
  assertRole(actor, "admin");
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(brandLogo).returning({ version: brandLogo.version, contentType: brandLogo.contentType });
    if (row) {
      await recordAudit(tx, actor, {
        entity: "settings",
        entityId: 1,
        action: "updated",
        before: { logo: { type: row.contentType, version: row.version } },
        after: { logo: null },
      });
    }
    return Boolean(row);
  });
}

/**
 * The logo file for its public URL (anyone may read it: it appears in e-mails).
 *
 * @param version - from the URL.
 * @returns the bytes and type, or null when `version` is not the current logo's.
 */
export async function readLogo(q: Queryable, version: string): Promise<{ bytes: Uint8Array; contentType: StoredLogoType } | null> {
  if (!/^[0-9a-f]{20}$/.test(version)) return null;
  const [row] = await q.select().from(brandLogo).where(eq(brandLogo.version, version));
  if (!row) return null;
  const bytes = new Uint8Array(Buffer.from(row.dataBase64, "base64"));
  // A logo stored as SVG before they were drawn on upload is drawn now: an SVG is never served.
  if (row.contentType === "image/svg+xml") {
    const png = await rasterizeSvg(bytes).catch(() => null);
    return png ? { bytes: png, contentType: "image/png" } : null;
  }
  return { bytes, contentType: row.contentType as StoredLogoType };
}

export { LOGO_MESSAGES };
