/**
 * The case-study editor's form and the testimonial form (issue #40, docs/product.md#portfolio);
 * shared by the actions and the browser's constraint checks, never imports server modules.
 */
import { z } from "zod";
import { optionalText, optionalUrl, requiredText } from "#app/lib/text-fields";

/** Limits of the editor's fields (characters). */
export const CASE_STUDY_LIMITS = { title: 120, slug: 60, summary: 300, line: 200, markdown: 20_000, alt: 200 } as const;

/**
 * First path segments the site's own routes and files use: a case study at `/<slug>` may not
 * take one (a test checks the list against app/routes.ts).
 */
export const RESERVED_SLUGS = new Set([
  "about",
  "projects",
  "contact",
  "verify",
  "i",
  "login",
  "register",
  "forgot-password",
  "reset-password",
  "verify-email",
  "invitations",
  "logout",
  "passkey",
  "account",
  "client-dashboard",
  "project-status",
  "proposal-request",
  "invoices",
  "proposals",
  "messages",
  "edit-proposal",
  "view-invoice",
  "meetings",
  "organisation",
  "payment-method",
  "testimonials",
  "ambassador",
  "admin",
  "theme",
  "brand",
  "portfolio",
  "assets",
  "screenshots",
  "generated",
  "owner",
  "events",
  "healthz",
  "readyz",
  "metrics",
  "api",
  "webhooks",
]);

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A case study's slug: its URL `/<slug>`. */
export const slugField = requiredText("Slug", CASE_STUDY_LIMITS.slug)
  .refine((value) => SLUG.test(value), "Use lowercase letters, digits and single hyphens, e.g. rental-platform.")
  .refine((value) => !RESERVED_SLUGS.has(value), "This address is taken by a page of the site; choose another slug.");

/** @returns a slug made from a title ("Rental Platform!" → "rental-platform"). */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, CASE_STUDY_LIMITS.slug)
    .replace(/-+$/, "");
  return !slug || RESERVED_SLUGS.has(slug) ? `case-study-${slug || "draft"}` : slug;
}

const markdown = (label: string) => requiredText(label, CASE_STUDY_LIMITS.markdown, { multiline: true });
const lines = (label: string, separator: RegExp, message: string) =>
  requiredText(label, CASE_STUDY_LIMITS.markdown, { multiline: true, message })
    .transform((value) =>
      value
        .split(separator)
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine(
      (items) => items.every((item) => item.length <= CASE_STUDY_LIMITS.line),
      `Each entry must be at most ${CASE_STUDY_LIMITS.line} characters.`,
    );

/** The editor's text fields (the screenshots have forms of their own). */
export const caseStudyDraftSchema = z.object({
  title: requiredText("Title", CASE_STUDY_LIMITS.title),
  slug: slugField,
  summary: requiredText("Summary", CASE_STUDY_LIMITS.summary, { multiline: true }),
  description: optionalText("Description", CASE_STUDY_LIMITS.markdown, { multiline: true }).transform((v) => v ?? ""),
  role: optionalText("Role", CASE_STUDY_LIMITS.line).transform((v) => v ?? ""),
  timeline: optionalText("Timeline", CASE_STUDY_LIMITS.line).transform((v) => v ?? ""),
  outcome: optionalText("Outcome", CASE_STUDY_LIMITS.line).transform((v) => v ?? ""),
  color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "Choose a colour like #4338ca.")
    .transform((v) => v.toLowerCase()),
  problem: markdown("The Problem"),
  solution: markdown("The Solution"),
  features: lines("Key Features", /\r?\n/, "List at least one key feature, one per line."),
  tech: lines("Technologies Used", /,|\r?\n/, "List at least one technology, separated by commas."),
  impact: markdown("Impact"),
  github: optionalUrl("GitHub link"),
  live: optionalUrl("Live site link"),
});
export type CaseStudyDraftInput = z.infer<typeof caseStudyDraftSchema>;

/** A screenshot's alt text: required. */
export const altField = requiredText("Alt text", CASE_STUDY_LIMITS.alt, {
  message: "Describe the screenshot for people who cannot see it.",
});

/** Consent choices as the client reads them. */
export const CONSENT_LABELS = {
  name: "Publish it with my name and company",
  first_name: "Publish it with my first name only",
  none: "Do not publish it (for the agency only)",
} as const;

/** The client's testimonial form. */
export const testimonialSchema = z.object({
  text: requiredText("Testimonial", 1_000, { multiline: true, message: "Write a few words about working with us." }),
  rating: z
    .string({ error: "Choose a rating from 1 to 5." })
    .regex(/^[1-5]$/, "Choose a rating from 1 to 5.")
    .transform(Number),
  consent: z.enum(["name", "first_name", "none"], { error: "Choose how we may publish it." }),
});
export type TestimonialInput = z.infer<typeof testimonialSchema>;
