/**
 * The admin settings, one page per section (issue #41, docs/product.md#settings): the sections in
 * menu order, and the frame every section page is drawn in.
 */
import type { ReactNode } from "react";
import { SectionLayout, type SettingsSection } from "#app/components/section-menu";

/** The sections whose fields are saved by /admin/settings/:section (availability has a page of its own). */
export type AdminSettingsSectionId = "company" | "brand" | "availability" | "reminders" | "payments" | "commissions" | "terms" | "sign-in";

/** The admin settings' sections, in menu order; `anchors` are the old single page's anchors each now holds. */
export const ADMIN_SETTINGS_SECTIONS = [
  { id: "company", label: "Company and billing details", to: "/admin/settings/company" },
  { id: "brand", label: "Brand", to: "/admin/settings/brand", anchors: ["logo-title", "logo"] },
  { id: "availability", label: "Availability", to: "/admin/settings/availability" },
  { id: "reminders", label: "Reminders", to: "/admin/settings/reminders", anchors: ["reminders-title"] },
  { id: "payments", label: "Payments", to: "/admin/settings/payments", anchors: ["payment-instructions"] },
  { id: "commissions", label: "Commissions", to: "/admin/settings/commissions" },
  { id: "terms", label: "Terms", to: "/admin/settings/terms" },
  { id: "sign-in", label: "Sign-in and registration", to: "/admin/settings/sign-in" },
] as const satisfies readonly (SettingsSection & { id: AdminSettingsSectionId })[];

/** The page's title of a section ("Brand | Settings | Admin Console"). */
export function settingsTitle(id: AdminSettingsSectionId): string {
  return `${ADMIN_SETTINGS_SECTIONS.find((s) => s.id === id)!.label} | Settings | Admin Console`;
}

/** An admin settings section's page: the heading, the section menu and the section. */
export function SettingsFrame({
  current,
  sectionHeading = true,
  children,
}: {
  current: AdminSettingsSectionId;
  sectionHeading?: boolean;
  children: ReactNode;
}) {
  return (
    <SectionLayout
      title="Settings"
      lead="Global settings of the portal, one section at a time."
      menuLabel="Settings sections"
      sections={ADMIN_SETTINGS_SECTIONS}
      current={current}
      sectionHeading={sectionHeading}
    >
      {children}
    </SectionLayout>
  );
}
